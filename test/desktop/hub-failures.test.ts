import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { ChildLike } from '../../app/desktop/host.ts';
import type { DesktopController } from '../../app/desktop/main.ts';
import { COMANDA_BIN, serverArgs, spawnServerProcess } from '../../app/desktop/server-process.ts';
import { launch, SHOTS } from '../backoffice/browser.ts';
import { comanda, isRunning, ServeProcess, until } from '../helpers/comanda-process.ts';
import { freePort } from '../helpers/free-port.ts';
import { FakeHost } from './fake-electron.ts';
import { bootOverRealHubs, cleanupsAfterEach, notFirstStart, quiet, statusText, tempDirs } from './fixture.ts';

// Each failure a venue meets on the evening something goes wrong, driven for real: the desktop
// main process (with the stand-in Electron) supervising real `comanda serve` processes. The
// status window must name the failure and its fix within 10 s of the second failed start.
const tmp = tempDirs('failing');
const cleanups = cleanupsAfterEach();

async function bootDesktop(o: { userData: string; port: number; spawn?: (settings: { port: number | null }) => ChildLike }) {
  notFirstStart(o.userData);
  const dataDir = path.join(o.userData, 'data');
  const failedStarts: number[] = [];
  const { host, desktop, tray } = await bootOverRealHubs(new FakeHost(o.userData), {
    spawnServer: o.spawn ?? ((s) => spawnServerProcess({ dataDir, args: ['--port', String(s.port ?? o.port), '--host', '127.0.0.1'], env: quiet })),
    findFreePort: () => freePort(),
  });
  desktop.supervisor.on('crash', (r) => r.failedStart && failedStarts.push(Date.now()));
  cleanups.push(() => desktop.supervisor.stop());
  return { host, desktop, failedStarts, tray, dataDir };
}

/** Waits for the second failed start, then gives the window 10 s to name the failure. */
async function windowNames(d: Awaited<ReturnType<typeof bootDesktop>>, reason: string): Promise<string> {
  // two starts of a real hub, each importing the server, plus the 1 s back-off: slow on a busy box
  await until(() => `a second failed start (${d.failedStarts.length} so far)`, () => d.failedStarts.length >= 2, { timeout: 45_000 });
  await until(
    () => `the status window naming ${reason}: ${statusText(d.desktop)?.slice(0, 300) ?? 'no window'}`,
    () => statusText(d.desktop)?.includes(`data-reason="${reason}"`) ?? false,
    10_000,
  );
  return statusText(d.desktop)!;
}

/** Shows the window's page in Chromium, for the operators' guide (docs/images/desktop-*.png). */
async function screenshot(page: string, name: string) {
  const browser = await launch();
  try {
    const p = await browser.newPage({ viewport: { width: 680, height: 520 } });
    await p.setContent(page);
    fs.mkdirSync(SHOTS, { recursive: true });
    await p.screenshot({ path: path.join(SHOTS, `desktop-${name}.png`), fullPage: true });
  } finally {
    await browser.close();
  }
}

/** Clicks a button of the status window: a link to the app's action scheme. */
function click(desktop: DesktopController, action: string) {
  (desktop.statusWindow() as any).webContents.navigate(`comanda-action:${action}`);
}

function holdPort(port: number): Promise<ChildProcess> {
  const holder = spawn(process.execPath, ['-e', `require('net').createServer().listen(${port}, '127.0.0.1', () => console.log('listening'))`], { stdio: ['ignore', 'pipe', 'inherit'] });
  cleanups.push(() => holder.kill('SIGKILL'));
  return new Promise((resolve) => holder.stdout!.once('data', () => resolve(holder)));
}

// 180 s: each case starts real hub processes twice and waits out the supervisor's back-off
describe('the desktop hub says why it does not start (real hub processes)', { timeout: 180_000 }, () => {
  it('port taken: names the program holding it, offers another port, and the hub then serves there', async () => {
    const port = await freePort();
    const holder = await holdPort(port);
    const d = await bootDesktop({ userData: tmp(), port });
    const page = await windowNames(d, 'port_taken');
    expect(page).toContain(`Port ${port} is taken by node (process ${holder.pid})`);
    expect(page).toMatch(/Use port \d+ instead/);
    // the tray says the same in words, not a state flipping between starting and restarting
    expect(d.tray.item('server').label).toBe(`Hub not running: Port ${port} is taken by node (process ${holder.pid})`);
    expect(d.tray.tooltip).toBe(`comanda — Port ${port} is taken by node (process ${holder.pid})`);
    await screenshot(page, 'port-taken');

    const offered = Number(/use-port\?port=(\d+)/.exec(page)![1]);
    click(d.desktop, `use-port?port=${offered}`);
    const ready = await d.desktop.supervisor.whenReady();
    expect(ready.port).toBe(offered);
    expect((await fetch(`http://127.0.0.1:${offered}/health`)).status).toBe(200);
    // remembered for the next start; the address tablets and QR codes use follows it
    expect(JSON.parse(fs.readFileSync(path.join(d.host.app.userData, 'desktop.json'), 'utf8')).port).toBe(offered);
    await until(`the tray showing the new address (${d.tray.item('address').label})`, () => d.tray.item('address').label!.endsWith(`:${offered}`));
    expect(d.desktop.statusWindow()).toBeNull();
    // (tablets are given the LAN address while this hub listens on loopback: the reachability
    // check may then report a problem of its own; the start problem is gone)
    expect(d.tray.item('server').label).toBe('Hub: Running');
    expect(d.desktop.problem()?.reason ?? null).not.toBe('port_taken');
  });

  it('data folder locked: names the other hub and stops it on request', async () => {
    const userData = tmp();
    const other = await ServeProcess.start(['--data-dir', path.join(userData, 'data')], { env: quiet });
    cleanups.push(() => other.stop());
    const d = await bootDesktop({ userData, port: await freePort() });
    const page = await windowNames(d, 'data_locked');
    expect(page).toContain(`in use by another comanda hub (process ${other.child.pid})`);
    expect(d.tray.item('server').label).toContain('in use by another comanda hub');
    await screenshot(page, 'data-locked');

    click(d.desktop, `stop-other?pid=${other.child.pid}`);
    await d.desktop.supervisor.whenReady();
    expect(isRunning(other.child.pid!)).toBe(false);
    // the page cannot have just any process ended: only the hub the failure named
    expect(d.desktop.problem()).toBeNull();
  });

  it('database unreadable: offers the latest backup with its time and restores it', async () => {
    const userData = tmp();
    const dataDir = path.join(userData, 'data');
    const hub = await ServeProcess.start(['--data-dir', dataDir], { env: quiet });
    const key = hub.ready.first_run.keys.secret as string;
    const category = await fetch(`${hub.url}/v1/menu_categories`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Pasta' }) });
    expect(category.status).toBe(201);
    await hub.stop();
    const backup = await comanda('backup', '--data-dir', dataDir);
    // the database file cut short, as a power cut on a cheap disk leaves it
    const db = path.join(dataDir, 'comanda.sqlite');
    fs.truncateSync(db, Math.floor(fs.statSync(db).size / 3));

    const d = await bootDesktop({ userData, port: await freePort() });
    const page = await windowNames(d, 'database_unreadable');
    expect(page).toContain('The database cannot be read');
    const at = d.desktop.problem()!.failure!.backup!;
    expect(at.file).toBe(backup.file);
    expect(page).toContain(`The latest backup is from <b>${new Date(at.at).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' })}</b>`);
    await screenshot(page, 'database-unreadable');

    click(d.desktop, 'restore');
    const ready = await d.desktop.supervisor.whenReady();
    const restored = await fetch(`${ready.url}/v1/menu_categories`, { headers: { 'x-api-key': key } });
    expect(((await restored.json()) as any).data.map((c: any) => c.name)).toEqual(['Pasta']);
    // the damaged file is kept aside, never deleted
    expect(fs.readdirSync(path.join(dataDir, 'replaced')).some((f) => f.startsWith('comanda-before-restore-'))).toBe(true);
  });

  it('disk full: a data folder on a full tmpfs', async () => {
    const userData = tmp();
    const mount = path.join(userData, 'disk');
    fs.mkdirSync(mount);
    const port = await freePort();
    // each start in a mount namespace of its own, where the data folder is a 256 KB tmpfs
    // filled to the brim: the hub meets a real ENOSPC / SQLITE_FULL
    const spawnOnFullDisk = (): ChildLike => {
      const script = `mount -t tmpfs -o size=256k tmpfs '${mount}' && mkdir '${mount}/data' && (dd if=/dev/zero of='${mount}/filler' bs=4k count=1000 2>/dev/null; true) && exec '${process.execPath}' '${COMANDA_BIN}' ${serverArgs({ dataDir: `${mount}/data`, args: ['--port', String(port), '--host', '127.0.0.1'] })
        .map((a) => `'${a}'`)
        .join(' ')}`;
      return spawn('unshare', ['-rm', 'sh', '-c', script], { env: { ...process.env, ...quiet }, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    };
    const d = await bootDesktop({ userData, port, spawn: spawnOnFullDisk });
    const page = await windowNames(d, 'disk_full');
    expect(page).toContain('The disk is full');
    expect(page).toContain(`${mount}/data`);
    expect(d.tray.item('server').label).toBe('Hub not running: The disk is full');
    await screenshot(page, 'disk-full');
  });

  it('firewall: a hub its own LAN address does not reach says tablets are blocked, in the window and the health report', async () => {
    const port = await freePort();
    const userData = tmp();
    const dataDir = path.join(userData, 'data');
    // tablets are given 127.0.0.2 while the hub listens on 127.0.0.1 only: as a firewall
    // would, the address refuses them, and the hub's test from that address says so
    const d = await bootDesktop({
      userData,
      port,
      spawn: () => spawnServerProcess({ dataDir, args: ['--port', String(port), '--host', '127.0.0.1', '--public-url', `http://127.0.0.2:${port}`], env: quiet }),
    });
    await d.desktop.supervisor.whenReady();
    await until(`the tray saying tablets are blocked (${d.tray.menu.map((i) => i.label)})`, () => d.tray.menu.some((i) => i.id === 'problem' && i.label === 'Tablets cannot reach the hub: how to fix…'));
    expect(d.tray.item('server').label).toBe('Hub: Running');
    d.tray.item('problem').click!();
    await until('the status window', () => statusText(d.desktop)?.includes('data-reason="firewall"') ?? false);
    const page = statusText(d.desktop)!;
    expect(page).toContain(`a request to its own network address (http://127.0.0.2:${port}) did not reach it`);
    expect(page).toContain('ECONNREFUSED');
    await screenshot(page, 'firewall');
    const health = d.desktop.state.health as any;
    expect(health.reachability).toMatchObject({ url: `http://127.0.0.2:${port}`, reachable: false, network_profile: null });
  });

  it('firewall: a hub its LAN address reaches reports it reachable', async () => {
    const port = await freePort();
    const userData = tmp();
    const dataDir = path.join(userData, 'data');
    const d = await bootDesktop({
      userData,
      port,
      spawn: () => spawnServerProcess({ dataDir, args: ['--port', String(port), '--host', '127.0.0.1', '--public-url', `http://127.0.0.1:${port}`], env: quiet }),
    });
    await d.desktop.supervisor.whenReady();
    await until('a health report with reachability', () => Boolean((d.desktop.state.health as any)?.reachability));
    expect((d.desktop.state.health as any).reachability).toMatchObject({ url: `http://127.0.0.1:${port}`, reachable: true });
    expect(d.tray.menu.some((i) => i.id === 'problem')).toBe(false);
  });

  it('the failed starts back off: the wait grows towards minutes instead of spinning', async () => {
    const port = await freePort();
    await holdPort(port);
    const d = await bootDesktop({ userData: tmp(), port });
    const delays: number[] = [];
    d.desktop.supervisor.on('crash', (r) => delays.push(r.restartInMs));
    // a start slowed by a busy box may count as a run of its own and begin the back-off again,
    // so the growth is read over three failed starts rather than between the first two
    await until(() => `three failed starts (${delays})`, () => delays.length >= 3, { timeout: 60_000 });
    expect(Math.max(...delays)).toBeGreaterThanOrEqual(2 * delays[0]);
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(1000);
    // "Try again" does not wait for the timer
    const before = d.desktop.supervisor.restarts;
    click(d.desktop, 'retry');
    expect(d.desktop.supervisor.restarts).toBe(before + 1);
  });
});

// a sanity check of what the corrupt-database test depends on: the truncated file is unreadable
it('a truncated database file does not open', () => {
  const dir = tmp();
  const file = path.join(dir, 'x.sqlite');
  const db = new SQLite(file);
  db.exec('CREATE TABLE t (x); INSERT INTO t VALUES (1);');
  db.close();
  fs.truncateSync(file, 10);
  expect(() => new SQLite(file).prepare('SELECT * FROM t').all()).toThrow(/not a database/);
});
