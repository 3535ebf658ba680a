import path from 'node:path';
import { connectTabletPage } from './connect-tablet.ts';
import { nextFreePort } from './free-port.ts';
import { ACTION_SCHEME, problemTitle, statusPage, type HubProblem } from './status-page.ts';
import type { ChildLike, DesktopHost, IpcSender, TrayLike, WindowLike } from './host.ts';
import { applyLoginItem, readPrefs, writePrefs, type DesktopPrefs, type LinuxAutostart } from './preferences.ts';
import { RotatingLog } from '../../server/operator/rotating-log.ts';
import { guardWebContents, isHubUrl, secureWebPreferences } from './security.ts';
import { realTimers, ServerSupervisor, type CrashRecord, type ServerReady, type Timers } from './supervisor.ts';
import { trayMenu, trayTooltip, type TrayState } from './tray-menu.ts';
import { UpdatePolicy } from './update-policy.ts';
import { UpdateGuard } from './rollback.ts';
import type { ServiceHours } from './update-timing.ts';

/** Where the back office lives on the hub (the web dashboard serves it). */
export const DASHBOARD_PATH = '/app/';

export interface DesktopOptions {
  /** starts `comanda serve` (server-process.ts; tests pass their own); port: the owner's choice, null for the hub's own */
  spawnServer(settings: { port: number | null }): ChildLike;
  /** runs another `comanda` command to its end (the status window's restore) */
  runHubCommand?(args: string[]): Promise<{ code: number | null; output: string }>;
  /** Windows: adds the program's firewall rule (elevated once); resolves with what happened */
  fixFirewall?(o: { includePublic: boolean; port: number }): Promise<string>;
  /**
   * runs a kept installer of the previous version silently (rollback.ts); the app quits and
   * the installer starts it again. Absent where the shell cannot (macOS, Linux): the owner is told what to do.
   */
  installPrevious?(installer: string): Promise<void>;
  /** a free port to offer when the hub's is taken */
  findFreePort?(taken: number): Promise<number | null>;
  /** ends another process (the other hub holding the data folder) */
  killProcess?(pid: number): void;
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
  /** the status window (what is wrong and its fix), when open */
  statusWindow(): WindowLike | null;
  problem(): HubProblem | null;
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
  // an update that does not start is taken back (rollback.ts)
  const guard = new UpdateGuard(userData, app.getVersion(), () => timers.now());
  let hours: ServiceHours | null = null;
  let restaurantName: string | null = null;
  const dataDir = path.join(userData, 'data');
  const state: TrayState = { server: 'stopped', tabletUrl: null, openAtLogin: prefs.openAtLogin, health: null, updateReady: null, problem: null, setupCode: null };

  const supervisor = new ServerSupervisor({
    spawn: () => opts.spawnServer({ port: prefs.port }),
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
      if (m.setup_needed === false) state.setupCode = null;
      reachabilityReported(m.health?.reachability ?? null);
      addressReported(m.health?.addresses?.change ?? null);
      render();
    },
  });

  let win: WindowLike | null = null;
  let connectWin: WindowLike | null = null;
  let statusWin: WindowLike | null = null;
  // While the hub restarts its pages are still its pages: a click in the window stays in the
  // app (openDashboard waits for the hub) instead of going to the system browser.
  let lastReady: ServerReady | null = null;
  const isHub = (url: string) => {
    const r = supervisor.ready ?? lastReady;
    if (!r) return false;
    return [`http://127.0.0.1:${r.port}`, ...r.urls, r.public_url].some((origin) => isHubUrl(url, origin));
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
    showProblem: () => void showStatus(true).catch(() => {}),
    quit: () => void controller!.quit(),
  };
  function render() {
    state.problem = problem ? problemTitle(problem) : null;
    tray.setToolTip(trayTooltip(state));
    tray.setContextMenu(trayMenu(state, actions));
  }

  // --- what is wrong, and its fix (status-page.ts) ---
  let problem: HubProblem | null = null;
  let updates: UpdatePolicy | null = null;
  /** the status window opened by itself for this run of failed starts */
  let shownForStreak = false;
  const newProblem = (reason: HubProblem['reason'], failure: HubProblem['failure'], lastOutput: string[] = []): HubProblem => ({
    reason,
    failure,
    lastOutput,
    suggestedPort: null,
    firewall: null,
    addressChange: null,
    update: null,
    note: null,
    retryAt: supervisor.nextStartAt,
  });
  /** an update that did not start: said until the owner dismisses it, over any start failure it causes */
  let updateProblem: HubProblem | null = null;
  const showUpdateProblem = (open: boolean) => {
    const f = guard.record.failed;
    if (!f || f.dismissed || (f.version !== guard.version && f.previous !== guard.version)) return;
    problem = newProblem('update_failed', null);
    problem.update = { failed: f.version, previous: f.previous, rolledBack: f.rolledBack, installer: f.rolledBack ? null : guard.installerOf(f.previous), backup: f.backup };
    updateProblem = problem;
    render();
    void showStatus(open).catch(() => {});
  };
  let rollingBack = false;
  async function startFailed(record: CrashRecord | null) {
    const failure = supervisor.failure ?? record?.failure ?? null;
    if (record?.failedStart && !rollingBack) {
      const d = guard.startFailed(supervisor.failedStarts, failure?.reason ?? null);
      if (d.kind === 'rollback' && opts.installPrevious) {
        rollingBack = true;
        log('the update does not start: installing the previous version again', { version: guard.version, previous: d.previous });
        guard.rollingBack(d.previous);
        await supervisor.stop();
        serverStopped = true;
        await opts.installPrevious(d.installer);
        return;
      }
      if (d.kind !== 'none' && !updateProblem) {
        guard.cannotRollBack(d.previous);
        showUpdateProblem(true);
        return;
      }
    }
    if (updateProblem) {
      problem = updateProblem;
      render();
      return showStatus(false);
    }
    const note = problem && problem.reason !== 'firewall' ? problem.note : null;
    problem = newProblem(failure?.reason ?? 'unknown', failure, record?.lastOutput ?? problem?.lastOutput ?? []);
    problem.note = note;
    if (problem.reason === 'port_taken' && failure?.port) problem.suggestedPort = await (opts.findFreePort ?? nextFreePort)(failure.port);
    render();
    // the second failed start in a row: no longer a blip, the owner has to know (and see the fix)
    const open = supervisor.failedStarts >= 2 && !shownForStreak;
    if (open) shownForStreak = true;
    await showStatus(open);
  }
  /** Shows the problem in the status window: opens it when asked, else only refreshes an open one. */
  async function showStatus(open: boolean) {
    if (!problem) return;
    const alive = statusWin && !statusWin.isDestroyed();
    if (!alive && !open) return;
    if (!alive) {
      statusWin = makeWindow('comanda — hub status', 680, 520);
      statusWin.webContents.on('will-navigate', (event, url) => {
        if (!url.startsWith(ACTION_SCHEME)) return;
        event.preventDefault();
        void runAction(new URL(url)).catch((err) => log('status window action failed', { url, error: err.message }));
      });
      statusWin.on('closed', () => (statusWin = null));
    }
    problem.retryAt = supervisor.state === 'waiting_to_restart' ? supervisor.nextStartAt : null;
    await statusWin!.loadURL(statusPage(problem));
    if (open) {
      statusWin!.show();
      statusWin!.focus();
    }
  }
  async function noteAndShow(note: string) {
    if (problem) problem.note = note;
    await showStatus(false);
  }
  async function runAction(url: URL) {
    const action = url.pathname.replace(/^\/+/, '');
    const f = problem?.failure ?? null;
    log('status window action', { action });
    switch (action) {
      case 'retry':
        supervisor.retryNow();
        return;
      case 'use-port': {
        const port = Number(url.searchParams.get('port'));
        if (!Number.isInteger(port) || port < 1 || port > 65535) return;
        prefs.port = port;
        writePrefs(userData, prefs);
        await noteAndShow(`Starting on port ${port}…`);
        supervisor.retryNow();
        return;
      }
      case 'stop-other': {
        // only the hub the failure named: the page cannot have any other process ended
        const pid = Number(url.searchParams.get('pid'));
        if (f?.reason !== 'data_locked' || f.holder?.pid !== pid) return;
        (opts.killProcess ?? ((p) => process.kill(p, 'SIGTERM')))(pid);
        await noteAndShow(`Asked the other hub (process ${pid}) to stop; trying again…`);
        const gone = () => {
          try {
            process.kill(pid, 0);
            return false;
          } catch (err: any) {
            return err.code !== 'EPERM';
          }
        };
        const wait = (left: number) => {
          if (gone() || left <= 0) return supervisor.retryNow();
          timers.setTimeout(() => wait(left - 1), 250);
        };
        wait(60);
        return;
      }
      case 'restore': {
        if (f?.reason !== 'database_unreadable' || !f.backup || !opts.runHubCommand) return;
        await noteAndShow('Restoring the backup…');
        // --force: the damaged database cannot say what it held that the cloud lacks; it is kept aside
        const r = await opts.runHubCommand(['restore', '--data-dir', dataDir, '--force', f.backup.file]);
        if (r.code !== 0) {
          await noteAndShow(`The restore failed: ${r.output.trim().split('\n').slice(-2).join(' ')}`);
          return;
        }
        await noteAndShow('The backup is restored; starting the hub…');
        supervisor.retryNow();
        return;
      }
      case 'fix-firewall': {
        if (!opts.fixFirewall) return;
        const port = (supervisor.ready ?? lastReady)?.port;
        if (!port) return;
        const outcome = await opts.fixFirewall({ includePublic: url.searchParams.get('public') === '1', port });
        await noteAndShow(outcome);
        supervisor.child?.send?.({ type: 'recheck_reachability' });
        return;
      }
      case 'recheck':
        supervisor.child?.send?.({ type: 'recheck_reachability' });
        return;
      case 'open-data':
        await shell.openPath(dataDir);
        return;
      case 'open-installers':
        await shell.openPath(guard.installersDir);
        return;
      case 'dismiss-update':
        guard.dismiss();
        updateProblem = null;
        problem = null;
        render();
        if (statusWin && !statusWin.isDestroyed()) statusWin.close();
        return;
      case 'address-reprinted':
        supervisor.child?.send?.({ type: 'address_change_acknowledged' });
        problem = null;
        render();
        if (statusWin && !statusWin.isDestroyed()) statusWin.close();
        return;
      case 'open-logs':
        await shell.openPath(logsDir);
        return;
    }
  }
  /** the hub's own LAN address tested from itself: tablets blocked is a problem of its own */
  let firewallShown = false;
  function reachabilityReported(r: { url: string; reachable: boolean; network_profile: string | null; detail: string | null } | null) {
    if (problem && problem.reason !== 'firewall' && problem.reason !== 'address_changed') return;
    if (!r || r.reachable) {
      if (problem?.reason === 'firewall') {
        problem = null;
        if (statusWin && !statusWin.isDestroyed()) statusWin.close();
      }
      return;
    }
    problem = newProblem('firewall', null);
    problem.firewall = { url: r.url, profile: r.network_profile, detail: r.detail, canFix: Boolean(opts.fixFirewall) };
    // once a run by itself (not at a login start: the tray says it there)
    const open = !firewallShown && !opts.hidden;
    firewallShown = true;
    void showStatus(open).catch(() => {});
  }
  /** the PC's address moved and QR codes embed the old one (server/operator/stable-address.ts): which to reprint */
  let addressShownFor: string | null = null;
  function addressReported(c: { from: string; to: string; reprint: { id: string; label: string }[] } | null) {
    if (problem && problem.reason !== 'address_changed') return;
    if (!c || c.reprint.length === 0) {
      if (problem?.reason === 'address_changed') {
        problem = null;
        if (statusWin && !statusWin.isDestroyed()) statusWin.close();
        render();
      }
      return;
    }
    problem = newProblem('address_changed', null);
    problem.addressChange = { from: c.from, to: c.to, reprint: c.reprint };
    render();
    // opens by itself once per move (not at a login start: the tray says it there)
    const open = addressShownFor !== c.to && !opts.hidden;
    addressShownFor = c.to;
    void showStatus(open).catch(() => {});
  }
  supervisor.on('crash', (record: CrashRecord) => {
    // a hub that keeps failing to start takes a waiting update at once (it may be the fix)
    if (record.failedStart && supervisor.failedStarts >= 2 && updates?.downloaded) void updates.tick();
    if (record.failedStart) void startFailed(record).catch((err) => log('status window failed', { error: err.message }));
  });
  // the reason may come just after the exit: the window then names it
  supervisor.on('failure', () => {
    if (supervisor.state !== 'running') void startFailed(null).catch(() => {});
  });
  tray.on('click', actions.openDashboard);
  supervisor.on('state', (s) => {
    state.server = s;
    render();
  });
  supervisor.on('ready', (r: ServerReady) => {
    lastReady = r;
    state.tabletUrl = r.public_url ?? r.url;
    state.setupCode = r.setup?.code ?? null;
    guard.ready();
    // a way back the owner was told of is moot once this version runs
    if (updateProblem && !updateProblem.update?.rolledBack && updateProblem.update?.failed === guard.version) {
      guard.dismiss();
      updateProblem = null;
    }
    const hadProblem = problem !== null && problem !== updateProblem;
    if (hadProblem) {
      problem = updateProblem;
      shownForStreak = false;
      // the window that said what was wrong now shows the hub
      if (statusWin && !statusWin.isDestroyed()) {
        statusWin.close();
        void controller?.openDashboard().catch(() => {});
      }
    }
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
    return { version: app.getVersion(), tabletUrl: state.tabletUrl, server: state.server, setupCode: state.setupCode, problem: state.problem };
  });
  host.handle('desktop:open-logs', (sender) => {
    fromHub(sender);
    return shell.openPath(logsDir);
  });

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
      hubBroken: () => supervisor.failedStarts >= 2,
      now: () => timers.now(),
      monotonic: () => timers.monotonic(),
      log,
      skip: (version) => guard.isBad(version),
      install: async () => {
        await supervisor.stop();
        serverStopped = true;
        // the way back: the database as it is now (the new version's migrations may change it for good)
        const to = updates!.downloaded!;
        let backup: string | null = path.join(userData, 'pre-update', `before-${to}.db`);
        const made = opts.runHubCommand ? await opts.runHubCommand(['backup', '--data-dir', dataDir, '--to', backup]).catch((err) => ({ code: 1, output: String(err) })) : { code: 1, output: 'no command runner' };
        if (made.code !== 0) {
          log('no backup before the update', { output: made.output });
          backup = null;
        }
        guard.beforeInstall(to, backup);
        // silent (no wizard: nobody is at the PC at night) and started again afterwards; a
        // per-user install (electron-builder.yml) needs no elevation, so no UAC prompt either
        updater.quitAndInstall(true, true);
      },
    });
    updater.on('update-downloaded', (info) => {
      try {
        guard.keepInstaller(info.version, info.downloadedFile);
      } catch (err: any) {
        log('could not keep the installer', { error: err.message });
      }
      if (guard.isBad(info.version)) return;
      state.updateReady = info.version;
      render();
      if (supervisor.failedStarts >= 2) void updates!.tick();
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
    statusWindow: () => (statusWin && !statusWin.isDestroyed() ? statusWin : null),
    problem: () => problem,
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
      const lan = ready.urls.find((u) => !/\/\/(127\.|localhost|\[::1\])/.test(u)) ?? null;
      const page = await connectTabletPage(state.tabletUrl ?? ready.public_url, restaurantName, state.setupCode, lan);
      if (!connectWin || connectWin.isDestroyed()) {
        connectWin = makeWindow('Connect a tablet', 520, 720);
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
  // back on the version an update was taken back to: the database as it was before that update
  const restore = guard.pendingRestore();
  if (restore && opts.runHubCommand) {
    const r = await opts.runHubCommand(['restore', '--data-dir', dataDir, '--force', restore]);
    if (r.code === 0) guard.restored();
    else log('restoring the database from before the update failed', { output: r.output });
  }
  showUpdateProblem(!opts.hidden);
  supervisor.start().catch((err) => log('server did not start', { error: err.message }));
  if (!opts.hidden) void controller.openDashboard().catch(() => {});
  return controller;
}
