import path from 'node:path';
import { connectTabletPage } from './connect-tablet.ts';
import type { ChildLike, DesktopHost, IpcSender, TrayLike, WindowLike } from './host.ts';
import { applyLoginItem, readPrefs, writePrefs, type DesktopPrefs, type LinuxAutostart } from './preferences.ts';
import { RotatingLog } from '../../server/operator/rotating-log.ts';
import { guardWebContents, isHubUrl, secureWebPreferences } from './security.ts';
import { realTimers, ServerSupervisor, type Timers } from './supervisor.ts';
import { trayMenu, trayTooltip, type TrayState } from './tray-menu.ts';
import { UpdatePolicy } from './update-policy.ts';
import type { ServiceHours } from './update-timing.ts';

/** Where the back office lives on the hub (the web dashboard serves it). */
export const DASHBOARD_PATH = '/app/';

export interface DesktopOptions {
  /** starts `comanda serve` (server-process.ts; tests pass their own) */
  spawnServer(): ChildLike;
  /** started at login: stay in the tray, no window */
  hidden: boolean;
  trayIconPath: string;
  windowIconPath?: string;
  preloadPath: string;
  feedUrl?: string | null;
  timers?: Timers;
  /** Linux only: start at login through an XDG autostart entry */
  linuxAutostart?: LinuxAutostart | null;
  /** the updater's tick; every minute by default */
  updateTickMs?: number;
  log?(message: string, extra?: unknown): void;
}

export interface DesktopController {
  supervisor: ServerSupervisor;
  tray: TrayLike;
  state: TrayState;
  prefs: DesktopPrefs;
  updates: UpdatePolicy | null;
  hours: ServiceHours | null;
  window(): WindowLike | null;
  openDashboard(url?: string): Promise<void>;
  connectTablet(): Promise<void>;
  /** a clean exit: the server finishes its requests and closes its database first */
  quit(): Promise<void>;
}

/**
 * The desktop hub's main process. Kept thin: one instance per machine, the server in its
 * own supervised process, a tray, and a window that shows the hub's own dashboard.
 */
export async function runDesktop(host: DesktopHost, opts: DesktopOptions): Promise<DesktopController | null> {
  const { app, shell } = host;
  const timers = opts.timers ?? realTimers;
  const log = opts.log ?? (() => {});
  // A second launch (double-click while it runs in the tray) shows the first one's window.
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return null;
  }
  let controller: DesktopController | null = null;
  app.on('second-instance', () => void controller?.openDashboard().catch(() => {}));
  // Closing the window leaves the hub running in the tray; only Quit stops it.
  app.on('window-all-closed', () => {});

  await app.whenReady();
  const userData = app.getPath('userData');
  // the server's own log (data/logs/comanda.log) and our crash log, in one folder for "Open logs folder"
  const logsDir = path.join(userData, 'data', 'logs');
  const prefs = readPrefs(userData);
  writePrefs(userData, prefs);
  applyLoginItem(app, prefs, opts.linuxAutostart ?? null);

  const crashLog = new RotatingLog(path.join(logsDir, 'crashes.log'), 1024 * 1024, 2);
  let hours: ServiceHours | null = null;
  let restaurantName: string | null = null;
  const state: TrayState = { server: 'stopped', tabletUrl: null, openAtLogin: prefs.openAtLogin, health: null, updateReady: null };

  const supervisor = new ServerSupervisor({
    spawn: opts.spawnServer,
    timers,
    onCrash: (record) => {
      crashLog.write(`${JSON.stringify(record)}\n`);
      log('server crashed; restarting', record);
    },
    onMessage: (m: any) => {
      if (m?.type !== 'status') return;
      state.health = m.health;
      hours = m.hours;
      restaurantName = m.restaurant?.name ?? null;
      if (m.health?.public_url) state.tabletUrl = m.health.public_url;
      render();
    },
  });

  let win: WindowLike | null = null;
  let connectWin: WindowLike | null = null;
  const localUrl = () => (supervisor.ready ? `http://127.0.0.1:${supervisor.ready.port}` : null);
  const isHub = (url: string) => {
    const r = supervisor.ready;
    if (!r) return false;
    return [localUrl()!, ...r.urls, r.public_url].some((origin) => isHubUrl(url, origin));
  };

  const tray = host.createTray(opts.trayIconPath);
  const actions = {
    openDashboard: () => void controller!.openDashboard().catch(() => {}),
    connectTablet: () => void controller!.connectTablet().catch(() => {}),
    toggleOpenAtLogin: () => {
      prefs.openAtLogin = !prefs.openAtLogin;
      writePrefs(userData, prefs);
      applyLoginItem(app, prefs, opts.linuxAutostart ?? null);
      state.openAtLogin = prefs.openAtLogin;
      render();
    },
    openLogs: () => void shell.openPath(logsDir),
    quit: () => void controller!.quit(),
  };
  function render() {
    tray.setToolTip(trayTooltip(state));
    tray.setContextMenu(trayMenu(state, actions));
  }
  tray.on('click', actions.openDashboard);
  supervisor.on('state', (s) => {
    state.server = s;
    render();
  });
  supervisor.on('ready', (r) => {
    state.tabletUrl = r.public_url ?? r.url;
    render();
    // The first start (after the installer): the address and QR that bring tablets here,
    // once; later they are in the tray (Connect a tablet…).
    if (!prefs.tabletHelpShown && !opts.hidden) {
      prefs.tabletHelpShown = true;
      writePrefs(userData, prefs);
      void controller?.connectTablet().catch(() => {});
    }
  });

  function makeWindow(title: string, width: number, height: number): WindowLike {
    const w = host.createWindow({
      width,
      height,
      title,
      show: true,
      icon: opts.windowIconPath,
      webPreferences: secureWebPreferences(opts.preloadPath),
    });
    guardWebContents(
      w.webContents,
      (url) => isHub(url),
      shell,
      (url) => void controller!.openDashboard(url).catch(() => {}),
    );
    return w;
  }

  // Only the hub's own pages may call the app: a page from anywhere else (a link that got
  // through, a frame) is refused, whatever the preload exposed to it.
  const fromHub = (sender: IpcSender) => {
    if (!sender.url || !isHub(sender.url)) throw new Error('refused: not a page of this hub');
  };
  host.handle('desktop:info', (sender) => {
    fromHub(sender);
    return { version: app.getVersion(), tabletUrl: state.tabletUrl, server: state.server };
  });
  host.handle('desktop:open-logs', (sender) => {
    fromHub(sender);
    return shell.openPath(logsDir);
  });

  let updates: UpdatePolicy | null = null;
  let quitting: Promise<void> | null = null;
  const quit = () =>
    (quitting ??= (async () => {
      await supervisor.stop();
      tray.destroy();
      app.quit();
    })());
  // Quitting from anywhere (menu, OS shutdown, the updater) stops the server first.
  let serverStopped = false;
  app.on('before-quit', (event) => {
    if (serverStopped) return;
    event.preventDefault();
    void quit().then(() => {
      serverStopped = true;
      app.quit();
    });
  });
  // Windows shutdown or log-off skips before-quit: the session's end is held back while the
  // server finishes its requests and closes its database, then the app goes.
  host.onSessionEnd((event) => {
    if (serverStopped) return;
    event.preventDefault();
    log('the session is ending: stopping the server');
    void quit().then(() => {
      serverStopped = true;
      app.quit();
    });
  });

  if (host.updater) {
    const updater = host.updater;
    updates = new UpdatePolicy({
      updater,
      feedUrl: opts.feedUrl ?? null,
      isOnline: () => host.isOnline(),
      hours: () => hours,
      now: () => timers.now(),
      monotonic: () => timers.monotonic(),
      log,
      install: async () => {
        await supervisor.stop();
        serverStopped = true;
        // silent (no wizard: nobody is at the PC at night) and started again afterwards; a
        // per-user install (electron-builder.yml) needs no elevation, so no UAC prompt either
        updater.quitAndInstall(true, true);
      },
    });
    updater.on('update-downloaded', (info) => {
      state.updateReady = info.version;
      render();
    });
    const tick = () => {
      void updates!.tick().finally(() => {
        if (!quitting) timers.setTimeout(tick, opts.updateTickMs ?? 60_000);
      });
    };
    timers.setTimeout(tick, opts.updateTickMs ?? 60_000);
  }

  controller = {
    supervisor,
    tray,
    state,
    prefs,
    updates,
    get hours() {
      return hours;
    },
    window: () => win,
    async openDashboard(url?: string) {
      const ready = await supervisor.whenReady();
      const target = url ?? `http://127.0.0.1:${ready.port}${DASHBOARD_PATH}`;
      if (!win || win.isDestroyed()) {
        win = makeWindow('comanda', 1280, 800);
        win.on('closed', () => (win = null));
      }
      await win.loadURL(target);
      if (win.isMinimized()) win.restore();
      win.show();
      win.focus();
    },
    async connectTablet() {
      const ready = await supervisor.whenReady();
      const page = await connectTabletPage(state.tabletUrl ?? ready.public_url, restaurantName);
      if (!connectWin || connectWin.isDestroyed()) {
        connectWin = makeWindow('Connect a tablet', 480, 640);
        connectWin.on('closed', () => (connectWin = null));
      }
      await connectWin.loadURL(page);
      connectWin.show();
      connectWin.focus();
    },
    quit: async () => {
      await quit();
      serverStopped = true;
    },
  };

  render();
  supervisor.start().catch((err) => log('server did not start', { error: err.message }));
  if (!opts.hidden) void controller.openDashboard().catch(() => {});
  return controller;
}
