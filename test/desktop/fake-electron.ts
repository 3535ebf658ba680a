import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import type { AppLike, ChildLike, DesktopHost, IpcSender, MenuItemModel, NavigationEvent, SessionEndEvent, TrayLike, UpdaterLike, WindowLike, WindowOptions } from '../../app/desktop/host.ts';
import type { Timers } from '../../app/desktop/supervisor.ts';

/** Timers that fire only when the test says so. */
export class ManualTimers implements Timers {
  ms = Date.UTC(2026, 10, 24, 12, 0, 0);
  /** the monotonic clock: advance() moves it with the wall clock, stepWall() does not */
  mono = 0;
  private seq = 0;
  pending = new Map<number, { at: number; fn: () => void; ms: number }>();
  now = () => this.ms;
  monotonic = () => this.mono;
  setTimeout = (fn: () => void, ms: number) => {
    const id = ++this.seq;
    // timers run on the monotonic clock, as Node's do
    this.pending.set(id, { at: this.mono + ms, fn, ms });
    return id;
  };
  clearTimeout = (h: unknown) => {
    this.pending.delete(h as number);
  };
  /** the delays of the timers waiting now */
  delays(): number[] {
    return [...this.pending.values()].map((t) => t.ms);
  }
  /** moves time on, running every timer that comes due */
  advance(ms: number): void {
    const until = this.mono + ms;
    for (;;) {
      const next = [...this.pending.entries()].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
      if (!next) break;
      this.pending.delete(next[0]);
      this.ms += next[1].at - this.mono;
      this.mono = next[1].at;
      next[1].fn();
    }
    this.ms += until - this.mono;
    this.mono = until;
  }
  /** steps the wall clock only (NTP, a person setting the time): no timer fires, none is delayed */
  stepWall(ms: number): void {
    this.ms += ms;
  }
}

/** A server process that does what the test tells it. */
export class FakeChild extends EventEmitter implements ChildLike {
  static nextPid = 1000;
  readonly pid = FakeChild.nextPid++;
  readonly stdout = new PassThrough();
  readonly stderr = new PassThrough();
  sent: unknown[] = [];
  signals: string[] = [];
  constructor(private readonly behaviour: { exitOnShutdown?: boolean } = { exitOnShutdown: true }) {
    super();
  }
  ready(port = 8080) {
    this.stdout.write(`${JSON.stringify({ url: `http://192.168.1.20:${port}`, urls: [`http://192.168.1.20:${port}`, `http://127.0.0.1:${port}`], public_url: `http://192.168.1.20:${port}`, port, pid: this.pid, first_run: null })}\n`);
  }
  send(message: unknown) {
    this.sent.push(message);
    if ((message as any)?.type === 'shutdown' && this.behaviour.exitOnShutdown) setImmediate(() => this.emit('exit', 0, null));
    return true;
  }
  kill(signal: NodeJS.Signals = 'SIGTERM') {
    this.signals.push(signal);
    if (signal === 'SIGKILL') setImmediate(() => this.emit('exit', null, 'SIGKILL'));
    return true;
  }
  crash(code = 1) {
    this.stderr.write('Error: something broke\n');
    this.emit('exit', code, null);
  }
}

export class FakeWebContents extends EventEmitter {
  openHandler: ((d: { url: string }) => { action: 'deny' } | { action: 'allow' }) | null = null;
  permissionHandler: ((permission: string, cb: (granted: boolean) => void) => void) | null = null;
  setWindowOpenHandler(h: any) {
    this.openHandler = h;
  }
  setPermissionRequestHandler(h: any) {
    this.permissionHandler = h;
  }
  /** a navigation the page starts; true when it was let through */
  navigate(url: string, event: 'will-navigate' | 'will-redirect' = 'will-navigate'): boolean {
    let prevented = false;
    const e: NavigationEvent = { preventDefault: () => (prevented = true) };
    this.emit(event, e, url);
    return !prevented;
  }
}

export class FakeWindow extends EventEmitter implements WindowLike {
  readonly webContents = new FakeWebContents() as any;
  loaded: string[] = [];
  shown = 0;
  destroyed = false;
  constructor(readonly options: WindowOptions) {
    super();
  }
  async loadURL(url: string) {
    this.loaded.push(url);
  }
  show() {
    this.shown++;
  }
  focus() {}
  isMinimized() {
    return false;
  }
  restore() {}
  isDestroyed() {
    return this.destroyed;
  }
  close() {
    this.destroyed = true;
    this.emit('closed');
  }
}

export class FakeTray extends EventEmitter implements TrayLike {
  menu: MenuItemModel[] = [];
  tooltip = '';
  destroyed = false;
  setToolTip(t: string) {
    this.tooltip = t;
  }
  setContextMenu(items: MenuItemModel[]) {
    this.menu = items;
  }
  destroy() {
    this.destroyed = true;
  }
  item(id: string): MenuItemModel {
    const found = this.menu.find((i) => i.id === id);
    if (!found) throw new Error(`no menu item ${id}`);
    return found;
  }
}

export class FakeApp extends EventEmitter implements AppLike {
  lockGranted = true;
  quits = 0;
  /** the app actually went away (a quit nobody prevented) */
  exited = false;
  loginItem: { openAtLogin: boolean; openAsHidden?: boolean; args?: string[] } | null = null;
  constructor(readonly userData: string) {
    super();
  }
  requestSingleInstanceLock() {
    return this.lockGranted;
  }
  async whenReady() {}
  quit() {
    this.quits++;
    let prevented = false;
    this.emit('before-quit', { preventDefault: () => (prevented = true) });
    if (!prevented) this.exited = true;
  }
  exit() {}
  getPath(name: 'userData' | 'logs') {
    return name === 'userData' ? this.userData : `${this.userData}/logs`;
  }
  /** the app's version (an update changes it between two runs) */
  version = '0.1.0';
  getVersion() {
    return this.version;
  }
  setLoginItemSettings(s: { openAtLogin: boolean; openAsHidden?: boolean; args?: string[] }) {
    this.loginItem = s;
  }
}

export class FakeUpdater extends EventEmitter implements UpdaterLike {
  autoDownload = false;
  autoInstallOnAppQuit = true;
  feed: { provider: 'generic'; url: string } | null = null;
  checks = 0;
  installs = 0;
  setFeedURL(o: { provider: 'generic'; url: string }) {
    this.feed = o;
  }
  async checkForUpdates() {
    this.checks++;
    return null;
  }
  installArgs: unknown[][] = [];
  quitAndInstall(...args: unknown[]) {
    this.installs++;
    this.installArgs.push(args);
  }
}

export class FakeHost implements DesktopHost {
  readonly app: FakeApp;
  windows: FakeWindow[] = [];
  trays: FakeTray[] = [];
  external: string[] = [];
  openedPaths: string[] = [];
  online = true;
  handlers = new Map<string, (sender: IpcSender) => unknown>();
  sessionEndListeners: ((event: SessionEndEvent) => void)[] = [];
  readonly shell = {
    openExternal: async (url: string) => {
      this.external.push(url);
    },
    openPath: async (p: string) => {
      this.openedPaths.push(p);
      return '';
    },
  };
  constructor(
    userData: string,
    readonly updater: FakeUpdater | null = null,
  ) {
    this.app = new FakeApp(userData);
  }
  createWindow(options: WindowOptions) {
    const w = new FakeWindow(options);
    this.windows.push(w);
    return w;
  }
  createTray() {
    const t = new FakeTray();
    this.trays.push(t);
    return t;
  }
  isOnline() {
    return this.online;
  }
  handle(channel: string, handler: (sender: IpcSender) => unknown) {
    this.handlers.set(channel, handler);
  }
  /** the preload calling a handler from a page at `url` */
  async invoke(channel: string, url: string | null): Promise<unknown> {
    return this.handlers.get(channel)!({ url });
  }
  onSessionEnd(listener: (event: SessionEndEvent) => void) {
    this.sessionEndListeners.push(listener);
  }
  /** Windows announcing a shutdown or log-off; true when the app held it back */
  endSession(): boolean {
    let held = false;
    for (const l of this.sessionEndListeners) l({ preventDefault: () => (held = true) });
    return held;
  }
}
