import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import net from 'node:net';
import readline from 'node:readline';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnServerProcess } from '../../app/desktop/server-process.ts';
import { ServerSupervisor, type CrashRecord } from '../../app/desktop/supervisor.ts';
import { freePort } from '../helpers/free-port.ts';
import { isRunning, until } from '../helpers/comanda-process.ts';
import { ApiClient } from '../helpers/server.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

// The real `comanda serve` in its own process, as the desktop app runs it.
describe('server supervision (real server process)', { timeout: 180_000 }, () => { // 180 s: a real server started, killed and started again
  it('kill -9 brings the server back on the same address with every answered order intact; stop closes it cleanly', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-supervised-'));
    dirs.push(dataDir);
    const port = await freePort();
    const crashes: CrashRecord[] = [];
    const statuses: any[] = [];
    let output = '';
    const supervisor = new ServerSupervisor({
      spawn: () => spawnServerProcess({ dataDir, args: ['--port', String(port), '--host', '127.0.0.1'], env: { LOG_LEVEL: 'info', MDNS: 'off' } }),
      onCrash: (r) => crashes.push(r),
      onMessage: (m) => statuses.push(m),
      onOutput: (chunk) => (output += chunk.toString()),
    });
    try {
      const first = await supervisor.start();
      expect(first.url).toBe(`http://127.0.0.1:${port}`);
      const key = (first.first_run as any).keys.secret as string;
      const api = new ApiClient(first.url, key);

      const category = await api.post('/v1/menu_categories', { name: 'Pasta' });
      const item = await api.post('/v1/menu_items', { name: 'Carbonara', category: category.body.id, price: 1450 });
      expect(item.status).toBe(201);
      const answered: string[] = [];
      for (let i = 0; i < 5; i++) {
        const r = await api.post('/v1/orders', { type: 'takeout', items: [{ menu_item: item.body.id, quantity: i + 1 }] });
        expect(r.status).toBe(201);
        answered.push(r.body.id);
      }
      const firstPid = first.pid;
      expect(fs.existsSync(path.join(dataDir, 'hub.lock'))).toBe(true);

      const crashed = new Promise((resolve) => supervisor.once('crash', resolve));
      process.kill(firstPid, 'SIGKILL');
      await crashed;
      const second = await supervisor.whenReady();
      expect(crashes).toHaveLength(1);
      expect(crashes[0]).toMatchObject({ pid: firstPid, signal: 'SIGKILL', restartInMs: 250 });
      expect(second.pid).not.toBe(firstPid);
      expect(second.url).toBe(first.url);
      // not a first run again: the same database, the same restaurant and key
      expect(second.first_run).toBeNull();
      for (const [i, id] of answered.entries()) {
        const r = await api.get(`/v1/orders/${id}`);
        expect(r.status).toBe(200);
        expect(r.body.items[0].quantity).toBe(i + 1);
      }
      expect((await api.post('/v1/orders', { type: 'takeout', items: [{ menu_item: item.body.id, quantity: 1 }] })).status).toBe(201);

      // the server tells its supervisor its health and hours, with real addresses
      await until('the server’s status with its health', () => statuses.some((s) => s.type === 'status' && s.health), { timeout: 60_000, diagnose: () => statuses });
      const status = statuses.find((s) => s.type === 'status' && s.health);
      expect(status.restaurant.slug).toBe('my-restaurant');
      expect(status.health.urls).toEqual([first.url]);
      expect(status.hours).toMatchObject({ timezone: expect.any(String), closed_dates: [] });

      let exit: { code: number | null; signal: string | null } | null = null;
      supervisor.child!.on('exit', (code, signal) => (exit = { code, signal }));
      await supervisor.stop();
      // a graceful stop: exit code 0, lock released after the database closed
      expect(exit).toEqual({ code: 0, signal: null });
      expect(supervisor.state).toBe('stopped');
      expect(fs.existsSync(path.join(dataDir, 'hub.lock'))).toBe(false);
      expect(output).toContain('stopped');
      const db = new SQLite(path.join(dataDir, 'comanda.sqlite'), { readonly: true });
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect((db.prepare('SELECT count(*) AS n FROM orders').get() as { n: number }).n).toBe(6);
      db.close();
    } finally {
      await supervisor.stop();
    }
  });

  // Three at once, each killed as soon as its hub answers: a hub told to stop while a worker
  // thread of its own was still starting once hung in process.exit (about one in four).
  it('when the app dies (kill -9) the server stops by itself: lock released, port free, database closed cleanly', async () => {
    await Promise.all([0, 1, 2].map(() => orphanedServerStops()));
  });
});

async function orphanedServerStops(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-orphan-'));
  dirs.push(dataDir);
  const port = await freePort();
  const parent = spawn(process.execPath, ['--import', 'tsx', path.resolve('test/desktop/supervised-parent.ts'), dataDir, String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const ready = await new Promise<{ pid: number; url: string }>((resolve, reject) => {
      parent.once('exit', (code) => reject(new Error(`the parent exited (${code})`)));
      readline.createInterface({ input: parent.stdout! }).once('line', (line) => resolve(JSON.parse(line)));
    });
    expect(ready.url).toBe(`http://127.0.0.1:${port}`);
    expect((await fetch(`${ready.url}/health`)).status).toBe(200);
    expect(isRunning(ready.pid)).toBe(true);

    parent.kill('SIGKILL');
    await until('the orphaned server to exit', () => !isRunning(ready.pid), {
      timeout: 60_000,
      // what it was doing (its process state and parent) and what it last logged
      diagnose: () => ({
        stat: fs.existsSync(`/proc/${ready.pid}/stat`) ? fs.readFileSync(`/proc/${ready.pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ').slice(0, 2) : 'gone',
        log: fs.existsSync(path.join(dataDir, 'logs', 'comanda.log')) ? fs.readFileSync(path.join(dataDir, 'logs', 'comanda.log'), 'utf8').split('\n').slice(-6) : 'no log',
      }),
    });
    // a graceful stop, not a kill: the lock is released and the log says why
    expect(fs.existsSync(path.join(dataDir, 'hub.lock'))).toBe(false);
    expect(fs.readFileSync(path.join(dataDir, 'logs', 'comanda.log'), 'utf8')).toContain('supervisor gone');
    const refused = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(false)));
      socket.once('error', () => resolve(true));
    });
    expect(refused).toBe(true);
    const db = new SQLite(path.join(dataDir, 'comanda.sqlite'), { readonly: true });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  } finally {
    if (parent.exitCode === null && parent.signalCode === null) parent.kill('SIGKILL');
  }
}
