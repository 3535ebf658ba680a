import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/assert.ts';
import { startHub, type TestHub } from '../helpers/server.ts';

const dirs: string[] = [];
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-owner-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

const backups = { enabled: true, dir: 'backups', keepDays: 14, schedule: '0 30 4 * * *' };
const modeOf = (p: string) => fs.statSync(p).mode & 0o777;

/** Signs a person in as the back office does: the session cookie, and the CSRF token echoed. */
async function signIn(url: string, email: string, password: string) {
  const res = await fetch(`${url}/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  expect(res.status).toBe(200);
  const cookies = Object.fromEntries(res.headers.getSetCookie().map((c) => c.split(';')[0].split('=') as [string, string]));
  return async (method: string, p: string, body?: unknown) => {
    const r = await fetch(url + p, {
      method,
      headers: { cookie: Object.entries(cookies).map(([k, v]) => `${k}=${v}`).join('; '), 'x-csrf-token': cookies.comanda_csrf, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: r.status, body: (await r.json()) as any, headers: r.headers };
  };
}

describe('backups: the owner decides where they go; the files are the hub account’s alone', () => {
  let hub: TestHub | null = null;
  afterEach(async () => {
    await hub?.close();
    hub = null;
  });

  it('a manager sees the backup settings but cannot change them, nor can a key with settings:write only; the owner can', async () => {
    const dataDir = tmp();
    hub = await startHub('sqlite', { dataDir, config: { dataDir, backups } });
    const made = await hub.api.post('/v1/staff', { name: 'Mara', email: 'mara@example.com', role: 'manager' });
    expect(made.status).toBe(201);
    expect((await hub.api.post(`/v1/staff/${made.body.id}/password`, { password: 'manager password 1' })).status).toBe(200);
    const manager = await signIn(hub.url, 'mara@example.com', 'manager password 1');
    expect((await manager('GET', '/v1/settings/backups')).status).toBe(200);
    const elsewhere = path.join(tmp(), 'theirs');
    for (const body of [{ dir: elsewhere }, { enabled: false }, { keep_days: 1 }]) expectError(await manager('PATCH', '/v1/settings/backups', body), 403, 'insufficient_scope');
    // managers still run the restaurant: settings and a backup on demand
    expect((await manager('PATCH', '/v1/settings', { name: 'Mara’s' })).status).toBe(200);
    expect((await manager('POST', '/v1/system/backups')).status).toBe(201);

    const settingsKey = await hub.api.post('/v1/api_keys', { name: 'integrator', scopes: ['settings:read', 'settings:write'] });
    expect(settingsKey.status).toBe(201);
    expectError(await hub.api.withKey(settingsKey.body.secret).patch('/v1/settings/backups', { dir: elsewhere }), 403, 'insufficient_scope');
    expect(fs.existsSync(elsewhere)).toBe(false);
    expect((await hub.api.get('/v1/settings/backups')).body).toMatchObject({ enabled: true, dir: path.join(dataDir, 'backups'), keep_days: 14 });

    expect((await hub.api.patch('/v1/settings/backups', { dir: elsewhere })).body.dir).toBe(elsewhere);
  });

  it('the data dir (made 0700), the database and its WAL, the backup folder and every backup are readable by the hub’s account only', async () => {
    const dataDir = path.join(tmp(), 'new', 'data');
    hub = await startHub('sqlite', { dataDir, config: { dataDir, backups } });
    expect((await hub.api.post('/v1/menu_categories', { name: 'Starters' })).status).toBe(201);
    expect(modeOf(dataDir)).toBe(0o700);
    expect(modeOf(path.dirname(dataDir))).toBe(0o700);
    for (const f of ['comanda.sqlite', 'comanda.sqlite-wal', 'comanda.sqlite-shm']) expect(modeOf(path.join(dataDir, f)), f).toBe(0o600);
    const made = await hub.api.post('/v1/system/backups');
    expect(made.status).toBe(201);
    expect(modeOf(path.join(dataDir, 'backups'))).toBe(0o700);
    expect(modeOf(path.join(dataDir, 'backups', made.body.file))).toBe(0o600);
  });
});
