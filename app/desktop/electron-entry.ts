// The Electron main process: only wiring. Everything it does is in main.ts and tested
// under plain Node with a fake of the Electron API (test/desktop/).
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
// @ts-ignore electron is an optional dependency: present where the desktop app runs
import electron from 'electron';
import { adaptElectron, type ElectronModule } from './electron-adapter.ts';
import type { UpdaterLike } from './host.ts';
import { runDesktop } from './main.ts';
import { spawnServerProcess } from './server-process.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const e = electron as unknown as ElectronModule;
let updater: UpdaterLike | null = null;
if (e.app.isPackaged) {
  const { autoUpdater } = (await import('electron-updater')).default as any;
  updater = autoUpdater as UpdaterLike;
}
const dataDir = path.join(e.app.getPath('userData'), 'data');

await runDesktop(adaptElectron(e, updater), {
  // Packaged: Electron runs the server as Node, with better-sqlite3 rebuilt for its ABI at
  // packaging. From a checkout (`npm run desktop`): the system's Node, which the installed
  // better-sqlite3 was built for.
  spawnServer: () => spawnServerProcess({ dataDir, execPath: e.app.isPackaged ? process.execPath : (process.env.COMANDA_NODE ?? 'node') }),
  hidden: process.argv.includes('--hidden'),
  trayIconPath: path.join(here, 'icons', process.platform === 'darwin' ? 'trayTemplate.png' : 'tray.png'),
  windowIconPath: path.join(here, 'icons', 'icon.png'),
  preloadPath: path.join(here, 'preload.cjs'),
  feedUrl: process.env.COMANDA_UPDATE_URL ?? null,
  linuxAutostart:
    process.platform === 'linux'
      ? { dir: path.join(process.env.XDG_CONFIG_HOME ?? path.join(os.homedir(), '.config'), 'autostart'), exec: process.env.APPIMAGE ?? process.execPath }
      : null,
  log: (message, extra) => console.log(JSON.stringify({ time: new Date().toISOString(), message, ...(extra as object) })),
});
