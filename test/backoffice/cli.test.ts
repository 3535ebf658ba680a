import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/database.ts';
import { silentLogger } from '../../server/logger.ts';
import { createServer } from '../../server/server.ts';

const run = promisify(execFile);
const BIN = path.resolve('bin/comanda');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-staff-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const comanda = async (...args: string[]) =>
  JSON.parse((await run(process.execPath, [BIN, ...args], { env: { ...process.env, LOG_LEVEL: 'silent' } })).stdout.trim());

const signIn = async (url: string, email: string, password: string) =>
  fetch(`${url}/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });

// The hub's console is the way back in for a locked-out owner; SQLite (what a hub runs on).
describe('comanda staff reset-password', { timeout: 120_000 }, () => { // 120 s: each command a fresh Node process
  it('gives the owner a new password that signs in, and signs out every old session', async () => {
    const init = await comanda('init', '--data-dir', dir, '--name', 'Locked Out', '--slug', 'locked-out', '--json');
    const email = init.owner.email as string;
    const server = createServer({ database: await openDatabase({ dataDir: dir }), logger: silentLogger });
    const { url } = await server.listen(0, '127.0.0.1');
    try {
      const first = await signIn(url, email, init.owner.password);
      expect(first.status).toBe(200);
      const cookie = first.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');

      const reset = await comanda('staff', 'reset-password', '--data-dir', dir, '--email', email.toUpperCase(), '--json');
      expect(reset).toMatchObject({ email, role: 'owner', sessions_revoked: 1 });
      expect(reset.password.length).toBeGreaterThanOrEqual(16);
      expect((await fetch(`${url}/v1/auth/session`, { headers: { cookie } })).status).toBe(401);
      expect((await signIn(url, email, init.owner.password)).status).toBe(401);
      expect((await signIn(url, email, reset.password)).status).toBe(200);

      await expect(comanda('staff', 'reset-password', '--data-dir', dir, '--email', 'nobody@example.com', '--json')).rejects.toThrow(/no staff user/);
    } finally {
      await server.close();
    }
  });
});
