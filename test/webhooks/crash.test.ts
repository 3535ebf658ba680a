import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DIALECTS, freshDatabase } from '../helpers/db.ts';
import { ApiClient } from '../helpers/server.ts';
import { until } from '../helpers/until.ts';
import { Receiver } from './helpers.ts';

const CHILD = fileURLToPath(new URL('./fixtures/crash-child.ts', import.meta.url));
const BURST = 300;

/** Starts the child server; `lines` gets every JSON line it prints. */
function startChild(args: string[], onLine: (msg: any) => void): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  readline.createInterface({ input: child.stdout! }).on('line', (line) => {
    try {
      onLine(JSON.parse(line));
    } catch {
      // not one of ours
    }
  });
  return child;
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));

describe.each(DIALECTS)('crash and restart on %s', (dialect) => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  it('SIGKILL in the middle of a burst loses nothing: every event ends delivered to every endpoint', { timeout: 180_000 }, async () => { // 180 s: a burst, kill -9 of a child process and a restart; every event delivered to every endpoint
    let target: string;
    if (dialect === 'sqlite') {
      target = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-crash-'));
      cleanups.push(() => fs.rmSync(target, { recursive: true, force: true }));
    } else {
      const db = await freshDatabase('postgres');
      target = db.url!;
      cleanups.push(() => db.close());
    }
    const receivers = await Promise.all([Receiver.start(), Receiver.start(), Receiver.start()]);
    cleanups.push(() => Promise.all(receivers.map((r) => r.close())).then(() => undefined));
    // slow answers: the burst outpaces delivery, so the kill lands with sends in flight and a backlog
    for (const r of receivers) r.respond = () => ({ status: 200, delayMs: 200 });

    const emitted: string[] = [];
    let ready: any = null;
    const first = startChild(['emit', target, String(BURST), JSON.stringify(receivers.map((r) => r.url))], (m) => {
      if (m.ready) ready = m;
      if (m.emitted) emitted.push(m.emitted);
    });
    cleanups.push(() => void first.kill('SIGKILL'));
    await until('first process ready', () => ready !== null, 90_000);
    await until('part of the burst committed and some delivered', () => emitted.length >= BURST / 3 && receivers.every((r) => r.received.length > 0), 90_000);
    first.kill('SIGKILL');
    await exited(first);
    const atKill = Math.min(...receivers.map((r) => r.ids().size));
    expect(emitted.length).toBeLessThan(BURST); // it really died mid-burst

    let resumed: any = null;
    const second = startChild(['resume', target], (m) => {
      if (m.ready) resumed = m;
    });
    cleanups.push(() => void second.kill('SIGKILL'));
    await until('second process ready', () => resumed !== null, 90_000);
    const stored: string[] = resumed.events;
    // every event whose commit the first process saw is there (and maybe one more in flight)
    expect(new Set(stored).size).toBe(stored.length);
    for (const id of emitted) expect(stored).toContain(id);

    // the restarted process found sends the dead one had claimed or not yet made
    expect(resumed.pendingAtStart).toBeGreaterThan(0);
    expect(atKill).toBeLessThanOrEqual(stored.length);
    await until('every stored event at every receiver', () => receivers.every((r) => stored.every((id) => r.ids().has(id))), 90_000);
    for (const [i, r] of receivers.entries()) {
      expect(r.allVerify(ready.secrets[i])).toBe(true);
      expect(r.ids()).toEqual(new Set(stored)); // nothing unknown arrived either
    }

    // and the restarted server's own record agrees: all delivered
    const api = new ApiClient(resumed.url, ready.key);
    await until('every event settled as delivered', async () => {
      let cursor: string | null = null;
      let delivered = 0;
      do {
        const qs: string = cursor ? `&starting_after=${cursor}` : '';
        const page = await api.get(`/v1/events?limit=100${qs}`);
        delivered += page.body.data.filter(
          (e: any) => e.status === 'delivered' && e.deliveries.length === 3 && e.deliveries.every((d: any) => d.status === 'delivered'),
        ).length;
        cursor = page.body.has_more ? page.body.next_cursor : null;
      } while (cursor);
      return delivered === stored.length;
    }, 90_000); // 90 s: a burst, kill -9 of a child process and a restart; every event delivered to every endpoint
    second.kill('SIGTERM');
    await exited(second);
    expect(second.exitCode).toBe(0);
  });
});
