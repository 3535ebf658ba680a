/**
 * The part of Electron the desktop hub uses, and nothing more. The main process is written
 * against this, so all of its logic runs under plain Node with a fake (test/desktop/) and
 * electron-adapter.ts maps the real Electron onto it.
 */

export interface MenuItemModel {
  id: string;
  label?: string;
  type?: 'normal' | 'separator' | 'checkbox';
  checked?: boolean;
  enabled?: boolean;
  click?: () => void;
}

export interface NavigationEvent {
  preventDefault(): void;
}

export interface WebContentsLike {
  on(event: 'will-navigate' | 'will-redirect', listener: (event: NavigationEvent, url: string) => void): void;
  on(event: 'will-attach-webview', listener: (event: NavigationEvent) => void): void;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' } | { action: 'allow' }): void;
  /** every permission a page asks for (camera, geolocation, notifications…) */
  setPermissionRequestHandler(handler: (permission: string, callback: (granted: boolean) => void) => void): void;
}

export interface WebPreferences {
  contextIsolation: boolean;
  sandbox: boolean;
  nodeIntegration: boolean;
  nodeIntegrationInSubFrames: boolean;
  webviewTag: boolean;
  webSecurity: boolean;
  allowRunningInsecureContent: boolean;
  preload?: string;
}

export interface WindowOptions {
  width: number;
  height: number;
  title: string;
  show: boolean;
  icon?: string;
  webPreferences: WebPreferences;
}

export interface WindowLike {
  readonly webContents: WebContentsLike;
  loadURL(url: string): Promise<void>;
  show(): void;
  focus(): void;
  isMinimized(): boolean;
  restore(): void;
  isDestroyed(): boolean;
  close(): void;
  on(event: 'closed', listener: () => void): void;
}

export interface TrayLike {
  setToolTip(text: string): void;
  /** the adapter builds the native menu (Menu.buildFromTemplate) from the models */
  setContextMenu(items: MenuItemModel[]): void;
  on(event: 'click', listener: () => void): void;
  destroy(): void;
}

export interface AppLike {
  requestSingleInstanceLock(): boolean;
  on(event: 'second-instance' | 'window-all-closed', listener: () => void): void;
  on(event: 'before-quit', listener: (event: NavigationEvent) => void): void;
  whenReady(): Promise<void>;
  quit(): void;
  exit(code?: number): void;
  getPath(name: 'userData' | 'logs'): string;
  getVersion(): string;
  setLoginItemSettings(settings: { openAtLogin: boolean; openAsHidden?: boolean; args?: string[] }): void;
}

export interface ShellLike {
  openExternal(url: string): Promise<void>;
  /** opens a folder in the system's file manager */
  openPath(path: string): Promise<string>;
}

/** electron-updater's autoUpdater, the part used. */
export interface UpdaterLike {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  setFeedURL(options: { provider: 'generic'; url: string }): void;
  checkForUpdates(): Promise<unknown>;
  /** isSilent: no installer wizard; isForceRunAfter: start the app again once installed */
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void;
  /** downloadedFile: the installer it downloaded (electron-updater's UpdateDownloadedEvent) */
  on(event: 'update-downloaded', listener: (info: { version: string; downloadedFile?: string }) => void): void;
  on(event: 'error', listener: (err: Error) => void): void;
}

/** A running server process: a Node child (child_process.fork, or Electron's utilityProcess). */
export interface ChildLike {
  readonly pid?: number;
  readonly stdout: NodeJS.ReadableStream | null;
  readonly stderr: NodeJS.ReadableStream | null;
  on(event: 'exit', listener: (code: number | null, signal: NodeJS.Signals | null) => void): void;
  on(event: 'message', listener: (message: unknown) => void): void;
  /** could not be started at all (no exit follows) */
  on(event: 'error', listener: (err: Error) => void): void;
  send?(message: unknown): boolean;
  kill(signal?: NodeJS.Signals): boolean;
}

/** Who called an IPC handler: the URL of the frame that sent it (null when unknown). */
export interface IpcSender {
  url: string | null;
}

/** The OS ending the session (shutdown, restart, log-off); preventDefault holds it back a while. */
export interface SessionEndEvent {
  preventDefault(): void;
}

export interface DesktopHost {
  app: AppLike;
  shell: ShellLike;
  createWindow(options: WindowOptions): WindowLike;
  createTray(iconPath: string): TrayLike;
  /** Electron's net.isOnline() */
  isOnline(): boolean;
  /** null where updates are off (development runs) */
  updater: UpdaterLike | null;
  /** IPC for the preload's narrow API; the handler sees who sent it and may refuse by throwing */
  handle(channel: string, handler: (sender: IpcSender) => unknown): void;
  /**
   * The session is ending: Windows shutdown or log-off (a window's query-session-end and
   * session-end: Electron emits no before-quit then), macOS and Linux shutdown (powerMonitor).
   */
  onSessionEnd(listener: (event: SessionEndEvent) => void): void;
}
