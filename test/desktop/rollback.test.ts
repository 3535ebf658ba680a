import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { ChildLike } from '../../app/desktop/host.ts';
import { ROLLBACK_AFTER_FAILED_STARTS } from '../../app/desktop/rollback.ts';
import { spawnServerProcess } from '../../app/desktop/server-process.ts';
import { realTimers } from '../../app/desktop/supervisor.ts';
import { freePort } from '../helpers/free-port.ts';
import { until } from '../helpers/until.ts';
import { FakeHost, FakeUpdater } from './fake-electron.ts';
import { bootOverRealHubs, cleanupsAfterEach, notFirstStart, quiet, statusText, tempDirs } from './fixture.ts';

// An update that does not start is taken back: the stand-in Electron runs the main process
// through one update (real `comanda serve`, a real backup), a new version that migrates the
// database its own way and then dies at every start, and the old version again.
const tmp = tempDirs('rollback');
const cleanups = cleanupsAfterEach();
// 04:00 UTC: a quiet time for a venue with no opening hours set (update-timing.ts)
const timers = { ...realTimers, now: () => Date.parse('2026-11-24T04:00:00Z') };
const noHours = { timezone: 'UTC', opening_hours: {}, closed_dates: [] };

/**
 * What the broken version does at each start: its migrations run (a migration the old version
 * never heard of, which would keep the old one from opening the database), then it dies.
 */
function brokenVersion(dataDir: string): ChildLike {
  const script = `const db = new (require('better-sqlite3'))(${JSON.stringify(path.join(dataDir, 'comanda.sqlite'))});
db.prepare("insert or ignore into kysely_migration (name, timestamp) values ('9990_only_in_1_1_0', '2026-11-24T04:00:00Z')").run();
db.close(); console.error('TypeError: cannot read properties of undefined'); process.exit(1);`;
  return spawn(process.execPath, ['-e', script], { cwd: path.resolve('.'), stdio: ['ignore', 'pipe', 'pipe', 'ipc'] }) as unknown as ChildLike;
}

async function boot(o: { userData: string; version: string; updater?: FakeUpdater; spawn?: () => ChildLike; installPrevious?: (file: string) => Promise<void> }) {
  const host = new FakeHost(o.userData, o.updater ?? null);
  host.app.version = o.version;
  const dataDir = path.join(o.userData, 'data');
  const port = await freePort();
  const booted = await bootOverRealHubs(host, {
    spawnServer: o.spawn ?? (() => spawnServerProcess({ dataDir, args: ['--port', String(port), '--host', '127.0.0.1'], env: quiet })),
    installPrevious: o.installPrevious,
    hidden: false,
    timers,
    updateTickMs: 3600_000,
  });
  cleanups.push(() => booted.desktop.supervisor.stop());
  return { ...booted, dataDir };
}

/** Version 1.0.0 runs, downloads 1.1.0 and installs it at a quiet time. */
async function updateTo110(userData: string, keepOldInstaller: boolean) {
  if (keepOldInstaller) {
    // what the 1.0.0 installer left when the owner installed it (installer.nsh)
    fs.mkdirSync(path.join(userData, 'installers', '1.0.0'), { recursive: true });
    fs.writeFileSync(path.join(userData, 'installers', '1.0.0', 'comanda-Setup-1.0.0.exe'), 'MZ installer 1.0.0');
  }
  notFirstStart(userData);
  const updater = new FakeUpdater();
  const v100 = await boot({ userData, version: '1.0.0', updater });
  await v100.desktop.supervisor.whenReady();
  (v100.desktop.supervisor.child as any).emit('message', { type: 'status', restaurant: null, health: null, hours: noHours, setup_needed: true });
  const download = path.join(tmp(), 'comanda-Setup-1.1.0.exe');
  fs.writeFileSync(download, 'MZ installer 1.1.0');
  updater.emit('update-downloaded', { version: '1.1.0', downloadedFile: download });
  expect(await v100.desktop.updates!.tick()).toBe('install');
  expect(updater.installs).toBe(1);
  // the way back is kept before the install: the database as it was, and 1.1.0's own installer for later
  const record = JSON.parse(fs.readFileSync(path.join(userData, 'updates.json'), 'utf8'));
  expect(record.trial).toMatchObject({ from: '1.0.0', to: '1.1.0' });
  expect(fs.existsSync(record.trial.backup)).toBe(true);
  expect(fs.readFileSync(path.join(userData, 'installers', '1.1.0', 'comanda-Setup-1.1.0.exe'), 'utf8')).toBe('MZ installer 1.1.0');
  return record.trial.backup as string;
}

/** 1.1.0 starts and dies until the shell acts; resolves with its desktop. */
async function runBroken(userData: string, installPrevious?: (file: string) => Promise<void>) {
  const dataDir = path.join(userData, 'data');
  const failed: number[] = [];
  const v110 = await boot({ userData, version: '1.1.0', spawn: () => brokenVersion(dataDir), installPrevious });
  v110.desktop.supervisor.on('crash', (r) => r.failedStart && failed.push(Date.now()));
  return { ...v110, failed };
}

// 120 s: three hub processes and two backoffs of the supervisor (1 s, 2 s) on a loaded box
describe('an update that does not start is taken back (stand-in Electron, real hub processes)', { timeout: 120_000 }, () => {
  it(`after ${ROLLBACK_AFTER_FAILED_STARTS} failed starts the previous version's kept installer runs; back on it, the database is put back and the update is not installed again`, async () => {
    const userData = tmp();
    await updateTo110(userData, true);

    const installed: string[] = [];
    const broken = await runBroken(userData, async (file) => void installed.push(file));
    await until(() => `the previous installer run (${broken.failed.length} failed starts)`, () => installed.length > 0, { timeout: 30_000 });
    expect(broken.failed.length).toBe(ROLLBACK_AFTER_FAILED_STARTS);
    expect(installed).toEqual([path.join(userData, 'installers', '1.0.0', 'comanda-Setup-1.0.0.exe')]);
    expect(broken.desktop.supervisor.state).toBe('stopped');
    // 1.1.0 migrated the database: 1.0.0 could not open it as it is
    const db = new SQLite(path.join(userData, 'data', 'comanda.sqlite'));
    expect(db.prepare("select count(*) n from kysely_migration where name = '9990_only_in_1_1_0'").get()).toEqual({ n: 1 });
    db.close();

    // the installer put 1.0.0 back and started it
    const updater = new FakeUpdater();
    const back = await boot({ userData, version: '1.0.0', updater });
    const ready = await back.desktop.supervisor.whenReady();
    expect((await fetch(`http://127.0.0.1:${ready.port}/health`)).status).toBe(200);
    const check = new SQLite(path.join(userData, 'data', 'comanda.sqlite'), { readonly: true });
    expect(check.prepare("select count(*) n from kysely_migration where name = '9990_only_in_1_1_0'").get()).toEqual({ n: 0 });
    check.close();
    // and says what happened, in the window and the tray
    await until(() => `the status window on the rollback: ${statusText(back.desktop)?.slice(0, 200)}`, () => statusText(back.desktop)?.includes('data-reason="update_failed"'));
    const page = statusText(back.desktop)!;
    expect(page).toContain('The update to 1.1.0 did not start: back on 1.0.0');
    expect(page).toContain('1.1.0 will not be installed again');
    expect(back.tray.item('problem').label).toBe('The update to 1.1.0 did not start: back on 1.0.0: how to fix…');
    // the same broken version offered again is not installed
    updater.emit('update-downloaded', { version: '1.1.0' });
    expect(back.desktop.state.updateReady).toBeNull();
    (back.desktop.supervisor.child as any).emit('message', { type: 'status', restaurant: null, health: null, hours: noHours, setup_needed: true });
    expect(await back.desktop.updates!.tick()).not.toBe('install');
    expect(updater.installs).toBe(0);
    // OK closes it for good
    (back.desktop.statusWindow() as any).webContents.navigate('comanda-action:dismiss-update');
    expect(back.desktop.statusWindow()).toBeNull();
    expect(JSON.parse(fs.readFileSync(path.join(userData, 'updates.json'), 'utf8')).failed).toMatchObject({ version: '1.1.0', previous: '1.0.0', rolledBack: true, restored: true, dismissed: true });
  });

  it('without a kept installer (or where the shell cannot run one) it tells the owner exactly how to go back', async () => {
    const userData = tmp();
    const backup = await updateTo110(userData, false);
    const broken = await runBroken(userData);
    await until(() => `the status window on the failed update (${broken.failed.length} failed starts): ${statusText(broken.desktop)?.slice(0, 200)}`, () => statusText(broken.desktop)?.includes('data-reason="update_failed"'), { timeout: 30_000 });
    const page = statusText(broken.desktop)!;
    expect(broken.failed.length).toBe(ROLLBACK_AFTER_FAILED_STARTS);
    expect(page).toContain('The update to 1.1.0 does not start');
    expect(page).toContain('comanda cannot go back to 1.0.0 by itself on this computer');
    expect(page).toContain('Quit comanda (tray → Quit)');
    expect(page).toContain(`from ${backup}`);
    // later failed starts keep saying it (not an "unknown" start failure)
    const before = broken.failed.length;
    await until(() => 'one more failed start', () => broken.failed.length > before, { timeout: 30_000 });
    await until(() => 'the window refreshed', () => statusText(broken.desktop)?.includes('data-reason="update_failed"'));
    expect(broken.tray.item('server').label).toBe('Hub not running: The update to 1.1.0 does not start');

    // the owner ran the 1.0.0 installer by hand: that start puts the database back
    await broken.desktop.supervisor.stop();
    const back = await boot({ userData, version: '1.0.0' });
    const ready = await back.desktop.supervisor.whenReady();
    expect((await fetch(`http://127.0.0.1:${ready.port}/health`)).status).toBe(200);
    expect(JSON.parse(fs.readFileSync(path.join(userData, 'updates.json'), 'utf8')).failed).toMatchObject({ version: '1.1.0', previous: '1.0.0', restored: true });
  });
});
