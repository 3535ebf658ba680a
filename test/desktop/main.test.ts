import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDesktop } from '../../app/desktop/main.ts';
import { FakeChild, FakeHost, FakeUpdater } from './fake-electron.ts';
import { bootOverFakeHubs, notFirstStart, tempDirs } from './fixture.ts';
import { until } from '../helpers/until.ts';

const tmp = tempDirs('desktop');

async function boot(opts: { hidden?: boolean; updater?: FakeUpdater; userData?: string; autostartDir?: string; firstStart?: boolean } = {}) {
  const userData = opts.userData ?? tmp();
  if (!opts.firstStart) notFirstStart(userData);
  const { host, timers, children, desktop, tray } = await bootOverFakeHubs(userData, {
    updater: opts.updater,
    hidden: opts.hidden ?? true,
    feedUrl: 'https://updates.example.test/comanda',
    linuxAutostart: opts.autostartDir ? { dir: opts.autostartDir, exec: '/opt/comanda hub/comanda' } : null,
  });
  children[0].ready(8080);
  await desktop.supervisor.whenReady();
  return { host, timers, children, desktop, tray };
}

const labels = (menu: { label?: string; type?: string }[]) => menu.map((i) => (i.type === 'separator' ? '---' : i.label));

describe('desktop main process (fake Electron)', () => {
  it('a second instance hands over to the first and quits', async () => {
    const host = new FakeHost(tmp());
    host.app.lockGranted = false;
    const result = await runDesktop(host, { spawnServer: () => new FakeChild(), hidden: false, trayIconPath: 't', preloadPath: 'p' });
    expect(result).toBeNull();
    expect(host.app.quits).toBe(1);
    expect(host.trays).toEqual([]);

    // the first instance shows its dashboard when another launch is attempted
    const { host: first } = await boot({ hidden: true });
    expect(first.windows).toEqual([]);
    first.app.emit('second-instance');
    await until('the first window loaded', () => first.windows.length === 1 && first.windows[0].loaded.length === 1, { every: 0 });
    expect(first.windows[0].loaded).toEqual(['http://127.0.0.1:8080/app/']);
  });

  it('tray menu: dashboard, connect a tablet, health at a glance, start at login, logs, quit', async () => {
    const { tray, children, host } = await boot();
    expect(labels(tray.menu)).toEqual([
      'Open dashboard',
      'Connect a tablet…',
      '---',
      'Hub: Running',
      'Address: http://192.168.1.20:8080',
      'Printers: …',
      'Cloud sync: …',
      '---',
      'Start at login',
      'Open logs folder',
      '---',
      'Quit comanda',
    ]);
    expect(tray.item('login')).toMatchObject({ type: 'checkbox', checked: true });

    // the server's status report fills in printers, sync and the backup warning
    children[0].emit('message', {
      type: 'status',
      restaurant: { id: 'rst_1', slug: 'trattoria', name: 'Trattoria' },
      hours: { timezone: 'Europe/Rome', opening_hours: {}, closed_dates: [] },
      health: {
        public_url: 'http://192.168.1.20:8080',
        printers: { total: 3, online: 1, offline: 1, needs_attention: 1, unknown: 0 },
        sync: { linked: true, connected: false, last_error: null, resync: false },
        backups: { warning: 'no_backup_in_48h', last_success_at: null },
      },
    });
    expect(tray.item('printers').label).toBe('Printers: 1 of 3 ready, 1 offline, 1 need attention');
    expect(tray.item('sync').label).toBe('Cloud sync: offline, changes kept');
    expect(tray.item('backup').label).toBe('Backup: none in the last 48 h!');
    expect(tray.tooltip).toBe('comanda — Running (needs attention)');

    tray.item('logs').click!();
    expect(host.openedPaths).toEqual([path.join(host.app.userData, 'data', 'logs')]);
    expect(await host.invoke('desktop:info', 'http://127.0.0.1:8080/app/settings')).toEqual({ version: '0.1.0', tabletUrl: 'http://192.168.1.20:8080', server: 'running', setupCode: null, problem: null });
  });

  it('the preload API answers only pages of this hub', async () => {
    const { host } = await boot();
    // the hub by loopback or by its LAN address
    expect(await host.invoke('desktop:info', 'http://192.168.1.20:8080/app/')).toMatchObject({ server: 'running' });
    expect(await host.invoke('desktop:open-logs', 'http://127.0.0.1:8080/app/')).toBe('');
    expect(host.openedPaths).toHaveLength(1);
    // anything else: another site, another port, the tablet page (data:), an unknown frame
    for (const url of ['https://evil.example/app/', 'http://127.0.0.1:9999/app/', 'data:text/html,<p>hi</p>', 'file:///etc/passwd', null]) {
      await expect(host.invoke('desktop:info', url), String(url)).rejects.toThrow(/refused/);
      await expect(host.invoke('desktop:open-logs', url), String(url)).rejects.toThrow(/refused/);
    }
    expect(host.openedPaths).toHaveLength(1);
  });

  it('while the server restarts the menu says so and the dashboard cannot be opened', async () => {
    const { tray, children, timers, host } = await boot();
    children[0].crash();
    expect(tray.item('server').label).toBe('Hub: Restarting after a problem…');
    expect(tray.item('open').enabled).toBe(false);
    timers.advance(250);
    expect(children).toHaveLength(2);
    expect(tray.item('server').label).toBe('Hub: Starting…');
    children[1].ready();
    await until('the tray says the hub is running', () => tray.item('server').label === 'Hub: Running', { every: 0 });
    // the crash is in the crash log, with what the server said last
    const lines = fs.readFileSync(path.join(host.app.userData, 'data', 'logs', 'crashes.log'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({ pid: children[0].pid, code: 1, signal: null, restartInMs: 250, lastOutput: ['Error: something broke'] });
  });

  it('start at login: on by default, remembered when switched off', async () => {
    const userData = tmp();
    const { host, tray } = await boot({ userData });
    expect(host.app.loginItem).toEqual({ openAtLogin: true, openAsHidden: true, args: ['--hidden'] });
    tray.item('login').click!();
    expect(host.app.loginItem?.openAtLogin).toBe(false);
    expect(tray.item('login').checked).toBe(false);
    expect(JSON.parse(fs.readFileSync(path.join(userData, 'desktop.json'), 'utf8'))).toMatchObject({ openAtLogin: false });
    // the next start keeps the owner's choice
    const again = await boot({ userData });
    expect(again.host.app.loginItem?.openAtLogin).toBe(false);
    expect(again.tray.item('login').checked).toBe(false);
  });

  it('start at login on Linux: an XDG autostart entry, removed when switched off', async () => {
    const autostartDir = path.join(tmp(), 'autostart');
    const { tray } = await boot({ autostartDir });
    const entry = path.join(autostartDir, 'comanda.desktop');
    expect(fs.readFileSync(entry, 'utf8')).toContain('Exec="/opt/comanda hub/comanda" --hidden');
    tray.item('login').click!();
    expect(fs.existsSync(entry)).toBe(false);
    tray.item('login').click!();
    expect(fs.existsSync(entry)).toBe(true);
  });

  it('windows are sandboxed and isolated; anything off the hub opens in the browser, never in the app', async () => {
    const { host, desktop } = await boot({ hidden: false });
    await until('the window loaded', () => host.windows[0]?.loaded.length === 1, { every: 0 });
    const win = host.windows[0];
    expect(win.options.webPreferences).toEqual({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      preload: '/app/preload.cjs',
    });
    expect(win.loaded).toEqual(['http://127.0.0.1:8080/app/']);
    const wc = win.webContents;
    // the hub's own pages, by loopback or by its LAN address, stay in the window
    expect(wc.navigate('http://127.0.0.1:8080/app/orders')).toBe(true);
    expect(wc.navigate('http://192.168.1.20:8080/app/menu')).toBe(true);
    // elsewhere: stopped, and handed to the system browser
    expect(wc.navigate('https://example.com/help')).toBe(false);
    expect(wc.navigate('http://127.0.0.1:9999/other-app')).toBe(false);
    expect(wc.navigate('https://evil.example/', 'will-redirect')).toBe(false);
    expect(host.external).toEqual(['https://example.com/help', 'http://127.0.0.1:9999/other-app', 'https://evil.example/']);
    // window.open: never a new app window
    expect(wc.openHandler({ url: 'https://docs.example.com/' })).toEqual({ action: 'deny' });
    expect(wc.openHandler({ url: 'javascript:alert(1)' })).toEqual({ action: 'deny' });
    expect(wc.navigate('file:///etc/passwd')).toBe(false);
    expect(host.external).toEqual(['https://example.com/help', 'http://127.0.0.1:9999/other-app', 'https://evil.example/', 'https://docs.example.com/']);
    // a hub page opened as a new window shows in the app window instead
    expect(wc.openHandler({ url: 'http://127.0.0.1:8080/app/print/123' })).toEqual({ action: 'deny' });
    await until('the window loaded again', () => win.loaded.length === 2, { every: 0 });
    expect(win.loaded.at(-1)).toBe('http://127.0.0.1:8080/app/print/123');
    expect(host.windows).toHaveLength(1);
    // no <webview>, no OS permissions
    let attached = true;
    wc.emit('will-attach-webview', { preventDefault: () => (attached = false) });
    expect(attached).toBe(false);
    const granted = await new Promise((r) => wc.permissionHandler('media', r));
    expect(granted).toBe(false);
    expect(desktop.window()).toBe(win);
  });

  it('connect a tablet shows a QR and the short pairing address in its own locked-down window', async () => {
    const { host, tray } = await boot();
    tray.item('connect').click!();
    await until('the new window loaded', () => host.windows.at(-1)?.loaded.length === 1, { every: 0 });
    const win = host.windows.at(-1)!;
    expect(win.options.title).toBe('Connect a tablet');
    expect(win.options.webPreferences.sandbox).toBe(true);
    const html = decodeURIComponent(win.loaded[0].replace(/^data:text\/html;charset=utf-8,/, ''));
    expect(html).toContain('http://192.168.1.20:8080/screens/pair');
    expect(html).toContain('<svg');
    expect(html).toContain("default-src 'none'");
  });

  it("connect a tablet by the hub's mDNS name also gives its LAN address, for a tablet that does not resolve .local", async () => {
    const { host, tray, children } = await boot();
    children[0].emit('message', { type: 'status', restaurant: null, health: { public_url: 'http://trattoria.local:8080', printers: { total: 0, online: 0, offline: 0, needs_attention: 0, unknown: 0 }, sync: { linked: false, connected: false, last_error: null, resync: false }, backups: null, reachability: null, addresses: { stable_url: 'http://trattoria.local:8080', lan_address: '192.168.1.20', change: null } }, hours: null, setup_needed: false });
    tray.item('connect').click!();
    await until('the new window loaded', () => host.windows.at(-1)?.loaded.length === 1, { every: 0 });
    const html = decodeURIComponent(host.windows.at(-1)!.loaded[0].replace(/^data:text\/html;charset=utf-8,/, ''));
    expect(html).toContain('<code>http://trattoria.local:8080/screens/pair</code>');
    expect(html).toContain("If that does not open on the tablet, use the hub's address:</p>\n<p><code>http://192.168.1.20:8080/screens/pair</code>");
  });

  it('the first start shows the LAN address and pairing QR once; a start at login does not', async () => {
    const userData = tmp();
    const first = await boot({ userData, hidden: false, firstStart: true });
    await until('the tablet window', () => first.host.windows.some((w) => w.options.title === 'Connect a tablet' && w.loaded.length === 1), { every: 0 });
    const page = decodeURIComponent(first.host.windows.find((w) => w.options.title === 'Connect a tablet')!.loaded[0]);
    expect(page).toContain('http://192.168.1.20:8080/screens/pair');
    expect(page).toContain('<svg');
    // the back office opens beside it
    await until('the dashboard', () => first.host.windows.some((w) => w.loaded.includes('http://127.0.0.1:8080/app/')), { every: 0 });
    expect(JSON.parse(fs.readFileSync(path.join(userData, 'desktop.json'), 'utf8'))).toMatchObject({ tabletHelpShown: true });
    // not again at the next start, nor after a server restart
    first.children[0].crash();
    first.timers.advance(250);
    first.children[1].ready();
    await until('the hub supervised as running', () => first.desktop.supervisor.state === 'running', { every: 0 });
    expect(first.host.windows.filter((w) => w.options.title === 'Connect a tablet')).toHaveLength(1);
    const again = await boot({ userData, hidden: false });
    await until('one window loaded in the second app', () => again.host.windows.length === 1 && again.host.windows[0].loaded.length === 1, { every: 0 });
    expect(again.host.windows.map((w) => w.options.title)).toEqual(['comanda']);
    // a first start at login (power back after a cut) stays in the tray
    const hidden = await boot({ hidden: true, firstStart: true });
    expect(hidden.host.windows).toEqual([]);
  });

  it('Windows shutdown or log-off: the session end is held until the server stopped gracefully', async () => {
    const { host, children, desktop } = await boot();
    expect(host.endSession()).toBe(true);
    expect(children[0].sent).toEqual([{ type: 'shutdown' }]);
    expect(children[0].signals).toEqual([]);
    await until('app exit', () => host.app.exited, { every: 0 });
    expect(desktop.supervisor.state).toBe('stopped');
    // session-end after query-session-end: nothing more to hold or to stop
    expect(host.endSession()).toBe(false);
    expect(children[0].sent).toEqual([{ type: 'shutdown' }]);
  });

  it('quitting stops the server gracefully first, from the menu or from the OS', async () => {
    const { tray, children, host } = await boot();
    tray.item('quit').click!();
    await until('app exit', () => host.app.exited, { every: 0 });
    expect(children[0].sent).toEqual([{ type: 'shutdown' }]);
    expect(children[0].signals).toEqual([]);
    expect(tray.destroyed).toBe(true);

    // the OS asking the app to quit (shutdown, logout) goes the same way
    const other = await boot();
    other.host.app.quit();
    // the first quit is held back until the server has stopped, then the app goes
    expect(other.host.app.exited).toBe(false);
    expect(other.children[0].sent).toEqual([{ type: 'shutdown' }]);
    await until('app exit', () => other.host.app.exited, { every: 0 });
    expect(other.desktop.supervisor.state).toBe('stopped');
  });
});
