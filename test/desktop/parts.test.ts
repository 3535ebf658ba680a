import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectTabletPage } from '../../app/desktop/connect-tablet.ts';
import { PassThrough } from 'node:stream';
import { adaptElectron, toMenuTemplate, utilityChild, type ElectronModule } from '../../app/desktop/electron-adapter.ts';
import { ServerSupervisor, type CrashRecord } from '../../app/desktop/supervisor.ts';
import { RotatingLog } from '../../server/operator/rotating-log.ts';
import { secureWebPreferences } from '../../app/desktop/security.ts';
import { printersLine, syncLine } from '../../app/desktop/tray-menu.ts';
import { FakeUpdater, ManualTimers } from './fake-electron.ts';
import { bootOverFakeHubs, tempDirs } from './fixture.ts';
import { until } from '../helpers/until.ts';

const tmp = tempDirs('desktop-parts');

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
    const ipc = new Map<string, (event: any) => unknown>();
    const powerMonitor = new EventEmitter();
    const electron = {
      app: {},
      BrowserWindow,
      Tray,
      Menu: { buildFromTemplate: (t: any[]) => (built.push(t), t) },
      shell: { openExternal: async () => {}, openPath: async () => '' },
      net: { isOnline: () => false },
      ipcMain: { handle: (channel: string, h: any) => ipc.set(channel, h) },
      powerMonitor,
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
    // IPC handlers learn which page called (the frame's URL), to refuse strangers
    const senders: unknown[] = [];
    host.handle('desktop:info', (sender) => senders.push(sender));
    ipc.get('desktop:info')!({ senderFrame: { url: 'http://127.0.0.1:8080/app/' } });
    ipc.get('desktop:info')!({ senderFrame: null });
    expect(senders).toEqual([{ url: 'http://127.0.0.1:8080/app/' }, { url: null }]);
    // a macOS or Linux shutdown reaches the app's session-end listener (Windows: a hidden window's)
    const ended: unknown[] = [];
    host.onSessionEnd((e) => ended.push(e));
    const shutdown = { preventDefault() {} };
    powerMonitor.emit('shutdown', shutdown);
    expect(ended).toEqual([shutdown]);
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
    const timers = new ManualTimers();
    timers.ms = Date.parse('2026-11-24T13:00:00+01:00'); // Tuesday lunch in Rome
    const { host, children, desktop } = await bootOverFakeHubs(tmp(), { updater, timers, feedUrl: null });
    children[0].ready();
    children[0].emit('message', {
      type: 'status',
      restaurant: null,
      health: null,
      hours: { timezone: 'Europe/Rome', opening_hours: { tuesday: [{ open: '12:00', close: '15:00' }] }, closed_dates: [] },
    });
    timers.advance(60_000);
    await until('first check', () => updater.checks === 1, { every: 0 });
    updater.emit('update-downloaded', { version: '0.2.0' });
    expect(host.trays[0].item('update').label).toBe('Update 0.2.0 installs after service');
    for (let i = 0; i < 60; i++) {
      timers.advance(60_000);
      await new Promise((r) => setImmediate(r));
    }
    expect(updater.installs).toBe(0); // 14:01, still lunch
    for (let i = 0; i < 120 && updater.installs === 0; i++) {
      timers.advance(60_000);
      await until('the update installing, or its check over', () => desktop.updates!.installing || !desktop.updates!.checking, { every: 0 });
      await new Promise((r) => setImmediate(r));
    }
    await until('install', () => updater.installs === 1, { every: 0 });
    // at 16:00 in Rome: closing at 15:00 plus the hour kept free
    expect(new Date(timers.now()).toISOString().slice(0, 16)).toBe('2026-11-24T15:00');
    expect(children[0].sent).toEqual([{ type: 'shutdown' }]);
    expect(desktop.supervisor.state).toBe('stopped');
    // silently (no installer wizard at night) and the app starts again
    expect(updater.installArgs).toEqual([[true, true]]);
  });

  it('a utility process (the packaged app’s hub) is supervised like a forked child', async () => {
    // Electron's UtilityProcess as far as the adapter uses it
    class FakeUtility extends EventEmitter {
      pid: number | undefined = undefined;
      stdout = new PassThrough();
      stderr = new PassThrough();
      posted: unknown[] = [];
      killed = 0;
      postMessage(m: unknown) {
        this.posted.push(m);
        if ((m as any)?.type === 'shutdown') setImmediate(() => this.emit('exit', 0));
      }
      kill() {
        this.killed++;
        setImmediate(() => this.emit('exit', 15));
        return true;
      }
    }
    const procs: FakeUtility[] = [];
    const crashes: CrashRecord[] = [];
    const timers = new ManualTimers();
    const supervisor = new ServerSupervisor({
      spawn: () => {
        const p = new FakeUtility();
        procs.push(p);
        return utilityChild(p);
      },
      timers,
      onCrash: (r) => crashes.push(r),
    });
    const started = supervisor.start();
    procs[0].pid = 4242;
    procs[0].stdout.write(`${JSON.stringify({ url: 'http://127.0.0.1:8080', urls: [], public_url: 'http://192.168.1.20:8080', port: 8080, pid: 4242, first_run: null })}\n`);
    expect((await started).port).toBe(8080);
    // a crash: exit code only, and the last lines it wrote
    procs[0].stderr.write('FATAL: out of memory\n');
    await new Promise((r) => setImmediate(r));
    procs[0].emit('exit', 134);
    expect(crashes).toMatchObject([{ pid: 4242, code: 134, signal: null, lastOutput: ['FATAL: out of memory'] }]);
    timers.advance(250);
    expect(procs).toHaveLength(2);
    procs[1].stdout.write(`${JSON.stringify({ url: 'http://127.0.0.1:8080', urls: [], public_url: 'http://192.168.1.20:8080', port: 8080, pid: 4243, first_run: null })}\n`);
    await supervisor.whenReady();
    // a V8 fatal error reported by Electron counts as a crash too
    procs[1].emit('error', 'FatalError', 'v8::ToLocalChecked');
    expect(crashes[1]).toMatchObject({ code: null, lastOutput: ['could not start: FatalError at v8::ToLocalChecked'] });
    timers.advance(500);
    procs[2].stdout.write(`${JSON.stringify({ url: 'http://127.0.0.1:8080', urls: [], public_url: 'http://192.168.1.20:8080', port: 8080, pid: 4244, first_run: null })}\n`);
    await supervisor.whenReady();
    // the graceful stop goes over its message port; no kill
    await supervisor.stop();
    expect(procs[2].posted).toEqual([{ type: 'shutdown' }]);
    expect(procs[2].killed).toBe(0);
    expect(supervisor.state).toBe('stopped');
  });
});
