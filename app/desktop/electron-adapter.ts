import { EventEmitter } from 'node:events';
import type { ChildLike, DesktopHost, MenuItemModel, SessionEndEvent, UpdaterLike, WindowOptions } from './host.ts';

/**
 * The few Electron APIs the desktop hub uses, as the real module provides them. Typed
 * loosely on purpose: `electron` is an optional dependency (its binary cannot be
 * downloaded everywhere), so nothing here may need its types to compile.
 */
export interface ElectronModule {
  app: any;
  BrowserWindow: new (options: any) => any;
  Tray: new (icon: string) => any;
  Menu: { buildFromTemplate(template: any[]): any };
  shell: { openExternal(url: string): Promise<void>; openPath(path: string): Promise<string> };
  net: { isOnline(): boolean };
  ipcMain: { handle(channel: string, handler: (...args: any[]) => unknown): void };
  powerMonitor: { on(event: 'shutdown', listener: (event: SessionEndEvent) => void): void };
  utilityProcess: { fork(modulePath: string, args?: string[], options?: any): UtilityProcessLike };
}

/** Electron's UtilityProcess, the part used. */
export interface UtilityProcessLike {
  readonly pid: number | undefined;
  readonly stdout: NodeJS.ReadableStream | null;
  readonly stderr: NodeJS.ReadableStream | null;
  on(event: 'exit', listener: (code: number) => void): void;
  on(event: 'message', listener: (message: unknown) => void): void;
  on(event: 'error', listener: (type: string, location: string) => void): void;
  postMessage(message: unknown): void;
  kill(): boolean;
}

/**
 * A utility process as the supervisor's ChildLike: its messages are the IPC channel, it ends
 * with a code (no signal; kill() is final whatever was asked).
 */
export function utilityChild(proc: UtilityProcessLike): ChildLike {
  const child = new EventEmitter();
  proc.on('exit', (code) => child.emit('exit', code, null));
  proc.on('message', (m) => child.emit('message', m));
  proc.on('error', (type, location) => child.emit('error', new Error(`${type} at ${location}`)));
  // pid is known only once Electron has spawned it: read through, not copied
  Object.defineProperty(child, 'pid', { get: () => proc.pid });
  return Object.assign(child, {
    stdout: proc.stdout,
    stderr: proc.stderr,
    send(message: unknown) {
      proc.postMessage(message);
      return true;
    },
    kill: () => proc.kill(),
  }) as unknown as ChildLike;
}

/** Menu models to Electron's template (the click handlers are the models' own). */
export function toMenuTemplate(items: MenuItemModel[]): any[] {
  return items.map((i) =>
    i.type === 'separator'
      ? { type: 'separator' }
      : { id: i.id, label: i.label, type: i.type ?? 'normal', checked: i.checked, enabled: i.enabled ?? true, click: i.click },
  );
}

export function adaptElectron(electron: ElectronModule, updater: UpdaterLike | null): DesktopHost {
  const { app, BrowserWindow, Tray, Menu, shell, net, ipcMain, powerMonitor } = electron;
  return {
    app,
    shell,
    updater,
    isOnline: () => net.isOnline(),
    createWindow(options: WindowOptions) {
      const w = new BrowserWindow({ ...options, autoHideMenuBar: true });
      return {
        webContents: {
          on: (event: string, listener: any) => w.webContents.on(event, listener),
          setWindowOpenHandler: (handler: any) => w.webContents.setWindowOpenHandler(handler),
          setPermissionRequestHandler: (handler: any) =>
            w.webContents.session.setPermissionRequestHandler((_wc: unknown, permission: string, callback: (ok: boolean) => void) => handler(permission, callback)),
        },
        loadURL: (url: string) => w.loadURL(url),
        show: () => w.show(),
        focus: () => w.focus(),
        isMinimized: () => w.isMinimized(),
        restore: () => w.restore(),
        isDestroyed: () => w.isDestroyed(),
        close: () => w.close(),
        on: (event: 'closed', listener: () => void) => w.on(event, listener),
      };
    },
    createTray(iconPath: string) {
      const t = new Tray(iconPath);
      return {
        setToolTip: (text: string) => t.setToolTip(text),
        setContextMenu: (items: MenuItemModel[]) => t.setContextMenu(Menu.buildFromTemplate(toMenuTemplate(items))),
        on: (event: 'click', listener: () => void) => t.on(event, listener),
        destroy: () => t.destroy(),
      };
    },
    handle: (channel, handler) => ipcMain.handle(channel, (event: any) => handler({ url: event?.senderFrame?.url ?? null })),
    onSessionEnd(listener) {
      powerMonitor.on('shutdown', listener);
      if (process.platform !== 'win32') return;
      // Windows tells top-level windows only, hidden ones too; the app may have none open
      // (it lives in the tray), so one invisible window is kept just to hear it.
      const listenerWindow = new BrowserWindow({ show: false, width: 1, height: 1, skipTaskbar: true, webPreferences: { sandbox: true, contextIsolation: true, nodeIntegration: false } });
      listenerWindow.on('query-session-end', listener);
      listenerWindow.on('session-end', listener);
    },
  };
}
