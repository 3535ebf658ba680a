import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { ServeProcess, until } from '../helpers/comanda-process.ts';

const dirs: string[] = [];
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-stuck-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** A request with a safety deadline (never a measured time): a hub that hangs fails the test instead of the run. */
async function call(url: string, key: string, method: string, body?: unknown) {
  const res = await fetch(url, {
    method,
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe('a bad backup folder never hangs the hub', () => {
  it('a real `comanda serve`: folders under /proc and below a file are refused with a 400 at once, the hub keeps answering, and SIGTERM stops it', async () => {
    const dataDir = tmp();
    const hub = await ServeProcess.start(['--data-dir', dataDir]);
    try {
      const key = hub.ready.first_run.keys.secret as string;
      const blocker = path.join(tmp(), 'a-file');
      fs.writeFileSync(blocker, 'x');
      for (const dir of ['/proc/nothere', '/proc/nothere/deeper/still', path.join(blocker, 'backups'), `/tmp/${'a/'.repeat(40)}`]) {
        const r = await call(`${hub.url}/v1/settings/backups`, key, 'PATCH', { dir });
        expect(r.status, dir).toBe(400);
        expect(r.body.error).toMatchObject({ code: 'parameter_invalid', param: 'dir' });
        expect(r.body.error.message).toContain('cannot write backups to');
      }
      // nothing changed, and a good folder is still taken
      expect((await call(`${hub.url}/v1/settings/backups`, key, 'GET')).body.dir).toBe(path.join(dataDir, 'backups'));
      const usb = path.join(tmp(), 'USB', 'comanda');
      expect((await call(`${hub.url}/v1/settings/backups`, key, 'PATCH', { dir: usb })).body.dir).toBe(usb);
      expect((await call(`${hub.url}/v1/system/health`, key, 'GET')).status).toBe(200);
    } finally {
      await hub.stop('SIGTERM');
    }
    expect(hub.child.exitCode).toBe(0);
  });

  it('a process whose request thread is stuck for good (no signal handler can run) is ended by its watchdog, with the reason on stderr', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.resolve('test/operator/stuck-child.ts'), '1500'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const stderr: string[] = [];
    readline.createInterface({ input: child.stderr! }).on('line', (l) => stderr.push(l));
    await new Promise<void>((resolve) => readline.createInterface({ input: child.stdout! }).once('line', () => resolve()));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    try {
      await until('the stuck process ends', () => child.exitCode !== null || child.signalCode !== null, 60_000);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    }
    expect(child.signalCode).toBe('SIGKILL');
    expect(stderr.join('\n')).toContain('the request thread answered nothing');
  });
});
