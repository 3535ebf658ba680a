import type { DesktopHost, MenuItemModel, UpdaterLike, WindowOptions } from './host.ts';

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
  const { app, BrowserWindow, Tray, Menu, shell, net, ipcMain } = electron;
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
    handle: (channel, handler) => ipcMain.handle(channel, () => handler()),
  };
}
