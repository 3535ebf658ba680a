import { spawn, execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { DIALECTS, freshDatabase } from '../helpers/db.ts';
import { ApiClient } from '../helpers/server.ts';
import { until } from '../helpers/until.ts';

const run = promisify(execFile);
const BIN = path.resolve('bin/comanda');
const tmpDirs: string[] = [];
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-cli-'));
  tmpDirs.push(d);
  return d;
};
afterAll(() => tmpDirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

async function comanda(...args: string[]) {
  const { stdout } = await run(process.execPath, [BIN, ...args], { env: { ...process.env, LOG_LEVEL: 'silent' } });
  return JSON.parse(stdout.trim());
}

// Each command is a fresh Node process compiling TypeScript: slow on a loaded 2-core box.
describe('comanda CLI', { timeout: 180_000 }, () => { // 180 s: each command a fresh Node process
  it('init prints the restaurant, owner and three keys; a second init adds a restaurant', async () => {
    const dir = tmp();
    const a = await comanda('init', '--data-dir', dir, '--name', 'Trattoria', '--slug', 'trattoria', '--currency', 'EUR', '--timezone', 'Europe/Rome', '--json');
    expect(Object.keys(a).sort()).toEqual(['keys', 'owner', 'restaurant']);
    expect(a.restaurant).toMatchObject({ slug: 'trattoria', name: 'Trattoria' });
    expect(a.restaurant.id).toMatch(/^rst_/);
    expect(a.owner.email).toContain('@');
    expect(a.owner.password.length).toBeGreaterThanOrEqual(12);
    expect(a.keys.secret).toMatch(/^sk_live_/);
    expect(a.keys.sandbox).toMatch(/^sk_test_/);
    expect(a.keys.widget).toMatch(/^wk_/);
    const b = await comanda('init', '--data-dir', dir, '--name', 'Second', '--slug', 'second', '--plan', 'starter', '--json');
    expect(b.restaurant.id).not.toBe(a.restaurant.id);
    await expect(comanda('init', '--data-dir', dir, '--name', 'Dup', '--slug', 'trattoria', '--json')).rejects.toThrow(/already used/);
    // a zone or currency the server cannot work with is refused now, not on every order later
    await expect(comanda('init', '--data-dir', dir, '--name', 'Mars', '--slug', 'mars', '--timezone', 'Mars/Olympus', '--json')).rejects.toThrow(/timezone is not an IANA time zone/);
    await expect(comanda('init', '--data-dir', dir, '--name', 'Euro', '--slug', 'euro', '--currency', 'EURO', '--json')).rejects.toThrow(/currency must be/);
    await expect(comanda('serve', '--data-dir', dir, '--role', 'banana')).rejects.toThrow(/--role must be 'hub' or 'cloud'/);
    await expect(comanda('init', '--data-dir', dir, '--name', 'X', '--slug', 'x2', '--plan', 'platinum', '--json')).rejects.toThrow(/unknown plan/);

    const key = await comanda('keys', 'create', '--data-dir', dir, '--restaurant', 'second', '--scopes', 'menu:read', '--sandbox', '--json');
    expect(key).toMatchObject({ scopes: ['menu:read'], livemode: false });
    expect(key.key).toMatch(/^sk_test_/);
    expect(key.id).toMatch(/^key_/);
    const widget = await comanda('keys', 'create', '--data-dir', dir, '--restaurant', a.restaurant.id, '--widget', '--json');
    expect(widget.key).toMatch(/^wk_live_/);
    await expect(comanda('keys', 'create', '--data-dir', dir, '--restaurant', 'second', '--scopes', 'menu:fly', '--json')).rejects.toThrow(/Unknown scope/);
  });

  it('demo builds a believable restaurant', async () => {
    const dir = tmp();
    const d = await comanda('demo', '--data-dir', dir, '--json');
    expect(d.keys.secret).toMatch(/^sk_live_/);
    const { openDatabase } = await import('../../server/db/database.ts');
    const db = await openDatabase({ dataDir: dir });
    try {
      const r = d.restaurant.id;
      const count = async (t: any) =>
        Number((await (db.db as any).selectFrom(t).select((eb: any) => eb.fn.countAll().as('n')).where('restaurant_id', '=', r).executeTakeFirst()).n);
      expect(await count('menu_items')).toBeGreaterThanOrEqual(30);
      expect(await count('modifier_groups')).toBeGreaterThanOrEqual(5);
      expect(await count('tables')).toBe(12);
      const stations = await db.db.selectFrom('stations').select('key').where('restaurant_id', '=', r).execute();
      expect(stations.map((s) => s.key)).toContain('grill');
      const nested = await db.db.selectFrom('menu_categories').select('id').where('restaurant_id', '=', r).where('parent_category_id', 'is not', null).execute();
      expect(nested.length).toBeGreaterThan(3);
      const rest = await db.db.selectFrom('restaurants').select('settings').where('id', '=', r).executeTakeFirstOrThrow();
      const settings = JSON.parse(rest.settings);
      expect(settings.waitlist.enabled).toBe(true);
      expect(Object.keys(settings.opening_hours).length).toBeGreaterThanOrEqual(5);
    } finally {
      await db.close();
    }
  });

  it.runIf(DIALECTS.includes('postgres'))('init works on PostgreSQL with --database-url', async () => {
    const database = await freshDatabase('postgres');
    try {
      const a = await comanda('init', '--database-url', database.url!, '--name', 'Cloud', '--slug', 'cloud', '--json');
      const row = await database.db.selectFrom('restaurants').select('slug').where('id', '=', a.restaurant.id).executeTakeFirst();
      expect(row?.slug).toBe('cloud');
    } finally {
      await database.close();
    }
  });

  it('serve comes up on an empty data dir with a usable restaurant and stops cleanly on SIGTERM', async () => {
    const dir = tmp();
    const port = 20000 + Math.floor(Math.random() * 20000);
    const child = spawn(process.execPath, [BIN, 'serve', '--data-dir', dir, '--port', String(port), '--host', '127.0.0.1'], {
      env: { ...process.env, LOG_LEVEL: 'info' },
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await until('comanda is serving', () => out.includes('comanda is serving'), { timeout: 20_000, diagnose: () => out.slice(-2000) });
    expect(out).toContain('First start');
    const key = /Live key:\s+(sk_live_\w+)/.exec(out)?.[1];
    expect(key).toBeDefined();
    const api = new ApiClient(`http://127.0.0.1:${port}`, key!);
    expect((await api.get('/health', { key: null })).body.status).toBe('ok');
    const stations = await api.get('/v1/stations');
    expect(stations.status).toBe(200);
    expect(stations.body.data.length).toBe(4);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(out).toContain('stopped');
  });

  it('serve --json prints one JSON line with where it listens', async () => {
    const dir = tmp();
    const child = spawn(process.execPath, [BIN, 'serve', '--data-dir', dir, '--port', '0', '--host', '127.0.0.1', '--json']);
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await until('the ready line', () => out.includes('\n'), { timeout: 20_000, diagnose: () => out });
    const info = JSON.parse(out.trim());
    expect(info).toMatchObject({ dialect: 'sqlite', role: 'hub' });
    expect(info.first_run.keys.secret).toMatch(/^sk_live_/);
    const api = new ApiClient(info.url, info.first_run.keys.secret);
    expect((await api.get('/v1/settings')).body.slug).toBe('my-restaurant');
    child.kill('SIGINT');
    expect(await exited).toBe(0);
  });
});
