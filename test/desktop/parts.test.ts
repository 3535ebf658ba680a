import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectTabletPage } from '../../app/desktop/connect-tablet.ts';
import { adaptElectron, toMenuTemplate, type ElectronModule } from '../../app/desktop/electron-adapter.ts';
import { runDesktop } from '../../app/desktop/main.ts';
import { RotatingLog } from '../../server/operator/rotating-log.ts';
import { secureWebPreferences } from '../../app/desktop/security.ts';
import { printersLine, syncLine } from '../../app/desktop/tray-menu.ts';
import { FakeChild, FakeHost, FakeUpdater, ManualTimers, until } from './fake-electron.ts';

const dirs: string[] = [];
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-desktop-parts-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe('desktop parts', () => {
  it('the Electron adapter passes the secure preferences and the menu through, and denies permissions', () => {
    const made: any[] = [];
    const built: any[] = [];
    let permissionHandler: any = null;
    class BrowserWindow extends EventEmitter {
      webContents = Object.assign(new EventEmitter(), {
        setWindowOpenHandler() {},
        session: { setPermissionRequestHandler: (h: any) => (permissionHandler = h) },
      });
      constructor(readonly options: any) {
        super();
        made.push(this);
      }
    }
    class Tray extends EventEmitter {
      menu: any = null;
      setContextMenu(m: any) {
        this.menu = m;
      }
      setToolTip() {}
      destroy() {}
    }
    const electron = {
      app: {},
      BrowserWindow,
      Tray,
      Menu: { buildFromTemplate: (t: any[]) => (built.push(t), t) },
      shell: { openExternal: async () => {}, openPath: async () => '' },
      net: { isOnline: () => false },
      ipcMain: { handle() {} },
    } as unknown as ElectronModule;
    const host = adaptElectron(electron, null);
    const w = host.createWindow({ width: 10, height: 10, title: 't', show: true, webPreferences: secureWebPreferences('/p.cjs') });
    expect(made[0].options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, preload: '/p.cjs' });
    w.webContents.setPermissionRequestHandler((_p, cb) => cb(false));
    let granted: boolean | null = null;
    permissionHandler({}, 'geolocation', (ok: boolean) => (granted = ok));
    expect(granted).toBe(false);
    const tray = host.createTray('x.png');
    const click = () => {};
    tray.setContextMenu([{ id: 'a', label: 'A', click }, { id: 's', type: 'separator' }, { id: 'c', label: 'C', type: 'checkbox', checked: true }]);
    expect(built[0]).toEqual([
      { id: 'a', label: 'A', type: 'normal', checked: undefined, enabled: true, click },
      { type: 'separator' },
      { id: 'c', label: 'C', type: 'checkbox', checked: true, enabled: true, click: undefined },
    ]);
    expect(host.isOnline()).toBe(false);
    expect(toMenuTemplate([])).toEqual([]);
  });

  it('the tablet page shows the pairing address as text and QR, and no restaurant name can inject markup', async () => {
    const page = decodeURIComponent((await connectTabletPage('http://192.168.1.20:8080/', '<img src=x onerror=alert(1)> & Co')).split(',')[1]);
    expect(page).toContain('<code>http://192.168.1.20:8080/screens/pair</code>');
    expect(page).toContain('&#60;img src=x onerror=alert(1)&#62; &#38; Co');
    expect(page).not.toContain('<img');
    expect(page).not.toContain('<script');
    expect(page).toMatch(/<svg[^>]*viewBox/);
  });

  it('the logs never grow past their cap', () => {
    const file = path.join(tmp(), 'logs', 'server.log');
    const log = new RotatingLog(file, 100, 2);
    for (let i = 0; i < 10; i++) log.write(`${'x'.repeat(39)}\n`);
    const files = fs.readdirSync(path.dirname(file)).sort();
    expect(files).toEqual(['server.log', 'server.log.1', 'server.log.2']);
    for (const f of files) expect(fs.statSync(path.join(path.dirname(file), f)).size).toBeLessThanOrEqual(100);
  });

  it('tray health lines', () => {
    const health = (p: Partial<{ total: number; online: number; offline: number; needs_attention: number; unknown: number }>, s: Partial<{ linked: boolean; connected: boolean; last_error: string | null; resync: boolean }> = {}) => ({
      printers: { total: 0, online: 0, offline: 0, needs_attention: 0, unknown: 0, ...p },
      sync: { linked: true, connected: true, last_error: null, resync: false, ...s },
      backups: null,
    });
    expect(printersLine(health({}))).toBe('Printers: none set up');
    expect(printersLine(health({ total: 2, online: 2 }))).toBe('Printers: all 2 ready');
    expect(printersLine(health({ total: 2, online: 1, unknown: 1 }))).toBe('Printers: 1 of 2 ready');
    expect(syncLine(health({}))).toBe('Cloud sync: up to date');
    expect(syncLine(health({}, { linked: false }))).toBe('Cloud sync: not linked');
    expect(syncLine(health({}, { last_error: 'refused' }))).toBe('Cloud sync: problem (see dashboard)');
    expect(syncLine(health({}, { resync: true }))).toBe('Cloud sync: re-sending everything');
  });

  it('an update downloaded during service is installed after it, the server stopped gracefully first', async () => {
    const updater = new FakeUpdater();
    const host = new FakeHost(tmp(), updater);
    const timers = new ManualTimers();
    timers.ms = Date.parse('2026-11-24T13:00:00+01:00'); // Tuesday lunch in Rome
    const children: FakeChild[] = [];
    const desktop = (await runDesktop(host, {
      spawnServer: () => {
        const c = new FakeChild();
        children.push(c);
        return c;
      },
      hidden: true,
      trayIconPath: 't',
      preloadPath: 'p',
      timers,
      feedUrl: null,
    }))!;
    children[0].ready();
    children[0].emit('message', {
      type: 'status',
      restaurant: null,
      health: null,
      hours: { timezone: 'Europe/Rome', opening_hours: { tuesday: [{ open: '12:00', close: '15:00' }] }, closed_dates: [] },
    });
    timers.advance(60_000);
    await until(() => updater.checks === 1, 'first check');
    updater.emit('update-downloaded', { version: '0.2.0' });
    expect(host.trays[0].item('update').label).toBe('Update 0.2.0 installs after service');
    for (let i = 0; i < 60; i++) {
      timers.advance(60_000);
      await new Promise((r) => setImmediate(r));
    }
    expect(updater.installs).toBe(0); // 14:01, still lunch
    for (let i = 0; i < 120 && updater.installs === 0; i++) {
      timers.advance(60_000);
      await until(() => desktop.updates!.installing || !desktop.updates!.checking);
      await new Promise((r) => setImmediate(r));
    }
    await until(() => updater.installs === 1, 'install');
    // at 16:00 in Rome: closing at 15:00 plus the hour kept free
    expect(new Date(timers.now()).toISOString().slice(0, 16)).toBe('2026-11-24T15:00');
    expect(children[0].sent).toEqual([{ type: 'shutdown' }]);
    expect(desktop.supervisor.state).toBe('stopped');
  });
});
