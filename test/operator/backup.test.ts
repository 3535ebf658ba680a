import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { acquireHubLock } from '../../server/operator/hub-lock.ts';
import { backupName, listBackups } from '../../server/operator/backup.ts';
import { restoreDataDir } from '../../server/operator/restore.ts';
import { seedMenu } from '../orders/fixtures.ts';
import { startHub, type TestHub } from '../helpers/server.ts';

const dirs: string[] = [];
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-backup-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

const backups = { enabled: true, dir: 'backups', keepDays: 14, schedule: '0 30 4 * * *' };

/** Every row of every table but the sync identity's, as text: what "the same data" means. */
function dump(file: string, skip = ['node_state', 'change_log', 'sync_link', 'kysely_migration', 'kysely_migration_lock']): Record<string, string> {
  const db = new SQLite(file, { readonly: true });
  try {
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string }[]).map((t) => t.name);
    return Object.fromEntries(tables.filter((t) => !skip.includes(t)).map((t) => [t, JSON.stringify(db.prepare(`SELECT * FROM "${t}" ORDER BY rowid`).raw().all())]));
  } finally {
    db.close();
  }
}

const orderIdsIn = (file: string) => {
  const db = new SQLite(file, { readonly: true });
  try {
    return new Set((db.prepare('SELECT id FROM orders').all() as { id: string }[]).map((r) => r.id));
  } finally {
    db.close();
  }
};

describe('backups and restore (SQLite hub, real data dir)', () => {
  let hub: TestHub | null = null;
  afterEach(async () => {
    await hub?.close();
    hub = null;
  });

  it('backs up while orders are being written; a restore brings back the same data, with a new sync epoch and the old database kept', async () => {
    const dataDir = tmp();
    hub = await startHub('sqlite', { dataDir, config: { dataDir, backups } });
    const menu = await seedMenu(hub);
    const order = async () => {
      const r = await hub!.api.post('/v1/orders', { type: 'takeout', items: [{ menu_item: menu.pasta, quantity: 1 }] });
      expect(r.status).toBe(201);
      return r.body.id as string;
    };
    const answered: string[] = [];
    for (let i = 0; i < 10; i++) answered.push(await order());

    // writers keep going while the backup copies, chunk by chunk
    let writing = true;
    const writers = Array.from({ length: 4 }, async () => {
      while (writing) answered.push(await order());
    });
    const beforeBackup = [...answered];
    const during = await hub.api.post('/v1/system/backups');
    writing = false;
    await Promise.all(writers);
    expect(during.status).toBe(201);
    const duringFile = path.join(dataDir, 'backups', during.body.file);
    const inBackup = orderIdsIn(duringFile);
    for (const id of beforeBackup) expect(inBackup.has(id)).toBe(true);
    const check = new SQLite(duringFile, { readonly: true });
    expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
    check.close();

    // a quiet backup, restored into another data dir, holds exactly what the hub holds
    hub.clock.advance(60_000);
    const quiet = await hub.api.post('/v1/system/backups');
    const quietFile = path.join(dataDir, 'backups', quiet.body.file);
    const live = dump(path.join(dataDir, 'comanda.sqlite'));
    const other = tmp();
    const seed = await startHub('sqlite', { dataDir: other, slug: 'somewhere-else' });
    const otherOrigin = (await seed.server.services.db.selectFrom('node_state').select('origin').executeTakeFirstOrThrow()).origin;
    await seed.close();
    const restored = await restoreDataDir(other, quietFile, hub.clock.now());
    expect(dump(path.join(other, 'comanda.sqlite'))).toEqual(live);
    expect(Object.keys(live)).toContain('orders');
    expect(orderIdsIn(path.join(other, 'comanda.sqlite')).size).toBe(answered.length);

    // the restored database has a new log identity, taken by its own change log too
    const db = new SQLite(path.join(other, 'comanda.sqlite'), { readonly: true });
    const origin = (db.prepare('SELECT origin FROM node_state').get() as { origin: string }).origin;
    const logOrigins = (db.prepare('SELECT DISTINCT origin FROM change_log').all() as { origin: string }[]).map((r) => r.origin);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
    expect(restored.epoch).toBe(origin);
    expect(origin).not.toBe(otherOrigin);
    expect(origin).not.toBe((await hub.server.services.db.selectFrom('node_state').select('origin').executeTakeFirstOrThrow()).origin);
    expect(logOrigins).toEqual([origin]);
    // the database it replaced is kept aside, whole
    expect(restored.keptAside).toMatch(/replaced[\\/]comanda-before-restore-/);
    const aside = new SQLite(restored.keptAside!, { readonly: true });
    expect((aside.prepare('SELECT slug FROM restaurants').all() as { slug: string }[]).map((r) => r.slug)).toEqual(['somewhere-else']);
    aside.close();
  }, 60_000); // the copy runs on a thread at nice 10 beside four writers: on a loaded box it gets the CPU last (3 s in CI at load 3-5, 36 s at load 15)

  it('refuses to restore while a hub holds the data dir, or a file that is not a sound comanda database, touching nothing', async () => {
    const dataDir = tmp();
    hub = await startHub('sqlite', { dataDir, config: { dataDir, backups } });
    const made = await hub.api.post('/v1/system/backups');
    const good = path.join(dataDir, 'backups', made.body.file);
    await hub.close();
    hub = null;

    const target = tmp();
    const seed = await startHub('sqlite', { dataDir: target, slug: 'kept' });
    await seed.close();
    const before = fs.readFileSync(path.join(target, 'comanda.sqlite'));

    const lock = acquireHubLock(target);
    await expect(restoreDataDir(target, good, Date.now())).rejects.toThrow(/a hub \(pid \d+\) is running/);
    lock.release();

    const corrupt = path.join(tmp(), 'corrupt.sqlite');
    const bytes = fs.readFileSync(good);
    bytes.fill(0x5a, 8192, 8192 + 4096);
    fs.writeFileSync(corrupt, bytes);
    await expect(restoreDataDir(target, corrupt, Date.now())).rejects.toThrow(/integrity check|not a SQLite database|malformed/);

    const text = path.join(tmp(), 'notes.sqlite');
    fs.writeFileSync(text, 'not a database at all');
    await expect(restoreDataDir(target, text, Date.now())).rejects.toThrow(/not a SQLite database|cannot be opened/);

    const foreign = path.join(tmp(), 'foreign.sqlite');
    const f = new SQLite(foreign);
    f.exec('CREATE TABLE notes (x TEXT)');
    f.close();
    await expect(restoreDataDir(target, foreign, Date.now())).rejects.toThrow(/not a comanda database/);
    await expect(restoreDataDir(target, path.join(target, 'missing.sqlite'), Date.now())).rejects.toThrow(/does not exist/);

    expect(fs.readFileSync(path.join(target, 'comanda.sqlite')).equals(before)).toBe(true);
    expect(fs.existsSync(path.join(target, 'replaced'))).toBe(false);
  });

  it('keeps 14 days of backups (the newest always) and warns when none succeeded in 48 h', async () => {
    const dataDir = tmp();
    hub = await startHub('sqlite', { dataDir, config: { dataDir, backups } });
    const health = async () => (await hub!.api.get('/v1/system/health')).body.backups;
    // a fresh install is not late
    expect(await health()).toMatchObject({ enabled: true, keep_days: 14, last_success_at: null, warning: null });
    hub.clock.advance(49 * 3600_000);
    expect((await health()).warning).toBe('no_backup_in_48h');

    const dir = path.join(dataDir, 'backups');
    fs.mkdirSync(dir, { recursive: true });
    const day = 86_400_000;
    const now = hub.clock.now();
    for (const age of [20, 15, 13, 1]) fs.writeFileSync(path.join(dir, backupName(now - age * day)), 'old backup');
    fs.writeFileSync(path.join(dir, 'my-notes.txt'), 'not ours');
    // a copy cut short by a shutdown two days ago
    const cut = path.join(dir, `${backupName(now - 2 * day)}.partial`);
    fs.writeFileSync(cut, 'half a copy');
    fs.utimesSync(cut, new Date(now - 2 * day), new Date(now - 2 * day));

    await hub.server.scheduler.runNow('backup');
    expect(hub.server.scheduler.status().find((j) => j.name === 'backup')).toMatchObject({ failures: 0, runs: 1 });
    const kept = listBackups(dir).map((b) => path.basename(b.file));
    expect(kept).toEqual([backupName(now), backupName(now - 1 * day), backupName(now - 13 * day)]);
    // the API lists what is kept, newest first, by name (not by the hub's own path), nothing else in the folder
    const folder = (await hub.api.get('/v1/system/backups')).body;
    expect(folder).toMatchObject({ object: 'backup_folder', dir });
    expect(folder.files.map((f: { file: string }) => f.file)).toEqual(kept);
    expect(folder.files.map((f: { created: number }) => f.created)).toEqual([now, now - day, now - 13 * day].map((ms) => Math.floor(ms / 1000)));
    expect(folder.files[0].size_bytes).toBeGreaterThan(folder.files[1].size_bytes);
    expect((await hub.api.withKey(hub.keys.sandbox).get('/v1/system/backups')).status).toBe(403);
    expect(fs.existsSync(path.join(dir, 'my-notes.txt'))).toBe(true);
    expect(fs.existsSync(cut)).toBe(false);

    const h = await health();
    expect(h).toMatchObject({ last_success_at: Math.floor(now / 1000), last_file: backupName(now), warning: null, last_error: null });
    expect(h.last_size_bytes).toBeGreaterThan(0);

    // a failing backup is recorded; after 48 h more without success the warning is back
    fs.rmSync(dir, { recursive: true });
    fs.writeFileSync(dir, 'a file where the folder should be');
    hub.clock.advance(49 * 3600_000);
    await hub.server.scheduler.runNow('backup');
    const failed = await health();
    expect(failed.last_error).toMatch(/EEXIST|ENOTDIR|not a directory/i);
    expect(failed.warning).toBe('no_backup_in_48h');
    expect(failed.last_success_at).toBe(Math.floor(now / 1000));

    // nightly only where it makes sense: no job and no backups route without a data dir
    const memory = await startHub('sqlite');
    expect(memory.server.scheduler.jobs.map((j) => j.name)).not.toContain('backup');
    expect((await memory.api.post('/v1/system/backups')).status).toBe(409);
    expect((await memory.api.get('/v1/system/backups')).status).toBe(409);
    expect((await memory.api.patch('/v1/settings/backups', { enabled: true })).status).toBe(409);
    expect((await memory.api.get('/v1/system/health')).body.backups).toBeNull();
    await memory.close();
  });

  it('the owner points backups at another folder, changes how long they are kept, or switches them off, from the API', async () => {
    const dataDir = tmp();
    hub = await startHub('sqlite', { dataDir, config: { dataDir, backups } });
    expect((await hub.api.get('/v1/settings/backups')).body).toEqual({
      object: 'backup_settings',
      enabled: true,
      dir: path.join(dataDir, 'backups'),
      keep_days: 14,
      schedule: '0 30 4 * * *',
    });
    const usb = path.join(tmp(), 'USB', 'comanda');
    const moved = await hub.api.patch('/v1/settings/backups', { dir: usb, keep_days: 30 });
    expect(moved.body).toMatchObject({ enabled: true, dir: usb, keep_days: 30 });
    await hub.server.scheduler.runNow('backup');
    expect(listBackups(usb)).toHaveLength(1);
    expect((await hub.api.get('/v1/system/health')).body.backups).toMatchObject({ dir: usb, keep_days: 30, last_file: backupName(hub.clock.now()) });

    // a folder that cannot be written (a file is in the way) is refused, nothing changes
    const blocked = path.join(tmp(), 'not-a-folder');
    fs.writeFileSync(blocked, 'x');
    const bad = await hub.api.patch('/v1/settings/backups', { dir: path.join(blocked, 'backups') });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'parameter_invalid', param: 'dir' });
    expect(bad.body.error.message).toContain('cannot write backups to');
    expect((await hub.api.patch('/v1/settings/backups', { keep_days: 0 })).body.error.param).toBe('keep_days');
    expect((await hub.api.get('/v1/settings/backups')).body.dir).toBe(usb);

    // off: the nightly run makes nothing (a backup on demand still works), and there is no warning
    expect((await hub.api.patch('/v1/settings/backups', { enabled: false })).body.enabled).toBe(false);
    hub.clock.advance(3 * 86_400_000);
    await hub.server.scheduler.runNow('backup');
    expect(listBackups(usb)).toHaveLength(1);
    expect((await hub.api.get('/v1/system/health')).body.backups.warning).toBeNull();
    expect((await hub.api.post('/v1/system/backups')).status).toBe(201);
    expect(listBackups(usb)).toHaveLength(2);

    // kept across a restart: read back from the database
    await hub.close();
    hub = await startHub('sqlite', { dataDir, config: { dataDir, backups }, slug: 'second-start' });
    expect((await hub.api.get('/v1/settings/backups')).body).toMatchObject({ enabled: false, dir: usb, keep_days: 30 });
  });
});
