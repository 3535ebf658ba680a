import { describe, expect, it } from 'vitest';
import { pageHtml } from '../../app/desktop/status-page.ts';
import { FakeUpdater } from './fake-electron.ts';
import { bootOverFakeHubs, notFirstStart, statusText, tempDirs } from './fixture.ts';
import { until as waitFor } from '../helpers/until.ts';

const until = (cond: () => boolean) => waitFor('the condition', cond, { every: 0 });
const tmp = tempDirs('status');

async function boot(o: { updater?: FakeUpdater; hidden?: boolean } = {}) {
  const userData = tmp();
  notFirstStart(userData);
  return bootOverFakeHubs(userData, { updater: o.updater, hidden: o.hidden ?? true, findFreePort: async (p) => p + 1 });
}

const portTaken = (port: number) => ({ type: 'start_failure', reason: 'port_taken', message: `port ${port} is already in use`, data_dir: '/d', port, holder: { pid: 42, name: 'nginx' }, backup: null, free_bytes: null });

describe('the status window (fake Electron)', () => {
  it('one failed start is a blip; the second opens the window, even when the reason comes after the exit', async () => {
    const { children, desktop, timers, tray } = await boot();
    children[0].crash(2);
    await until(() => desktop.supervisor.state === 'waiting_to_restart');
    expect(desktop.statusWindow()).toBeNull();
    // but the tray already says it in words
    expect(tray.item('server').label).toBe('Hub not running: The hub does not start');
    timers.advance(desktop.supervisor.nextStartAt! - timers.now());
    expect(children).toHaveLength(2);
    children[1].crash(2);
    await until(() => desktop.statusWindow() !== null);
    expect(statusText(desktop)!).toContain('Error: something broke');
    children[1].emit('message', portTaken(8080));
    await until(() => statusText(desktop)!.includes('Port 8080 is taken by nginx (process 42)'));
    expect(statusText(desktop)!).toContain('Use port 8081 instead');
    expect(tray.item('server').label).toBe('Hub not running: Port 8080 is taken by nginx (process 42)');

    // fixed: the window gives way to the dashboard
    desktop.supervisor.retryNow();
    children[2].ready(8080);
    await until(() => desktop.statusWindow() === null);
    expect(tray.item('server').label).toBe('Hub: Running');
  });

  it('an update waiting while the hub cannot start installs at once, even in service hours', async () => {
    const updater = new FakeUpdater();
    const { children, desktop, timers } = await boot({ updater });
    updater.emit('update-downloaded', { version: '0.2.0' });
    // hours unknown (the hub never ran): normally never a quiet time
    children[0].crash(2);
    await until(() => desktop.supervisor.state === 'waiting_to_restart');
    expect(updater.installs).toBe(0);
    timers.advance(desktop.supervisor.nextStartAt! - timers.now());
    children[1].crash(2);
    await until(() => updater.installs === 1);
    expect(updater.installArgs[0]).toEqual([true, true]);
  });

  it("the hub's address moved: the window names the QR codes to reprint and tells to reserve the address; done, the hub is told", async () => {
    const { children, desktop, tray } = await boot({ hidden: false });
    children[0].ready(8080);
    await desktop.supervisor.whenReady();
    const change = { from: '192.168.1.20', to: '192.168.1.57', changed_at: 1_764_000_000, reprint: [{ id: 'qr_1', label: 'Table 1' }, { id: 'qr_2', label: 'Counter' }] };
    const status = (c: typeof change | null) => children[0].emit('message', { type: 'status', restaurant: null, health: { public_url: 'http://192.168.1.57:8080', printers: { total: 0, online: 0, offline: 0, needs_attention: 0, unknown: 0 }, sync: { linked: false, connected: false, last_error: null, resync: false }, backups: null, reachability: null, addresses: { stable_url: null, lan_address: '192.168.1.57', change: c } }, hours: null, setup_needed: false });
    status(change);
    await until(() => desktop.statusWindow() !== null);
    const page = statusText(desktop)!;
    expect(page).toContain('data-reason="address_changed"');
    expect(page).toContain('192.168.1.20 → 192.168.1.57');
    expect(page).toContain('<b>Table 1, Counter</b>');
    expect(page).toContain('reserve the address 192.168.1.57 for this PC in the router');
    expect(tray.item('problem').label).toBe("The hub's address changed: print 2 QR codes again: how to fix…");
    // the next report of the same move does not open it again once closed
    desktop.statusWindow()!.close();
    status(change);
    expect(desktop.statusWindow()).toBeNull();
    // reprinted: the hub is told (it then reports no move)
    tray.item('problem').click!();
    await until(() => desktop.statusWindow() !== null);
    (desktop.statusWindow() as any).webContents.navigate('comanda-action:address-reprinted');
    expect(children[0].sent).toContainEqual({ type: 'address_change_acknowledged' });
    expect(desktop.statusWindow()).toBeNull();
    status(null);
    expect(() => tray.item('problem')).toThrow();
  });

  it('while the hub restarts, a click on one of its links stays in the app', async () => {
    const { host, children, desktop } = await boot({ hidden: false });
    children[0].ready(8080);
    await until(() => host.windows.length === 1);
    children[0].crash(1);
    await until(() => desktop.supervisor.state === 'waiting_to_restart');
    expect(host.windows[0].webContents.navigate('http://127.0.0.1:8080/app/orders')).toBe(true);
    expect(host.external).toEqual([]);
  });

  it('the Connect-a-tablet page shows the setup code of a fresh hub, and its address wraps', async () => {
    const { host, children, desktop, tray } = await boot();
    children[0].stdout.write(`${JSON.stringify({ url: 'http://192.168.1.20:8080', urls: ['http://192.168.1.20:8080'], public_url: 'http://my-restaurant-with-a-long-name.local:8080', port: 8080, pid: 1, first_run: null, setup: { url: 'http://127.0.0.1:8080/app/', code: '482913' } })}\n`);
    await desktop.supervisor.whenReady();
    expect(tray.item('setup').label).toBe('Setup code (for another device): 482913');
    await desktop.connectTablet();
    const page = pageHtml(host.windows.at(-1)!.loaded.at(-1)!);
    expect(page).toContain('the setup code <b>482913</b>');
    expect(page).toMatch(/code\{display:block;[^}]*overflow-wrap:anywhere/);
    // once an owner exists the code is gone
    children[0].emit('message', { type: 'status', restaurant: null, health: null, hours: null, setup_needed: false });
    expect(tray.menu.some((i) => i.id === 'setup')).toBe(false);
  });
});
