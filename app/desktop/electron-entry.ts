// The Electron main process: only wiring. Everything it does is in main.ts and tested
// under plain Node with a fake of the Electron API (test/desktop/). Built ahead of time into
// dist/electron/main.mjs (bin/build.mjs): Electron runs that file, never these sources.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
// @ts-ignore electron is an optional dependency: present where the desktop app runs
import electron from 'electron';
import { adaptElectron, utilityChild, type ElectronModule } from './electron-adapter.ts';
import type { UpdaterLike } from './host.ts';
import { runDesktop } from './main.ts';
import { execFile, spawn } from 'node:child_process';
import { firewallFixCommand } from './firewall.ts';
import { collect, COMANDA_BUNDLE, serverArgs, spawnCommandProcess, spawnServerProcess } from './server-process.ts';

// the checkout, or the packaged app (app.asar): the bundle sits two folders below it
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const icons = path.join(root, 'app/desktop/icons');
const e = electron as unknown as ElectronModule;
const dataDir = path.join(e.app.getPath('userData'), 'data');
const feedUrl = process.env.COMANDA_UPDATE_URL ?? null;

// Updates only in the packaged app, and only where it knows a feed: one baked in at packaging
// (app-update.yml, when COMANDA_UPDATE_FEED_URL was set) or COMANDA_UPDATE_URL on this machine.
let updater: UpdaterLike | null = null;
if (e.app.isPackaged && (feedUrl || fs.existsSync(path.join((process as NodeJS.Process & { resourcesPath: string }).resourcesPath, 'app-update.yml')))) {
  const { autoUpdater } = (await import('electron-updater')).default as any;
  updater = autoUpdater as UpdaterLike;
}

await runDesktop(adaptElectron(e, updater), {
  // Packaged: the hub runs in an Electron utility process (its lifetime tied to the app's;
  // no ELECTRON_RUN_AS_NODE, whose fuse is off), with the better-sqlite3 rebuilt for
  // Electron at packaging. From a checkout (`npm run desktop`): a child of the system's Node,
  // which the checkout's better-sqlite3 was built for.
  spawnServer: ({ port }) => {
    // the port the owner moved the hub to from the status window
    const args = port ? ['--port', String(port)] : [];
    return e.app.isPackaged
      ? utilityChild(e.utilityProcess.fork(COMANDA_BUNDLE, serverArgs({ dataDir, args }), { stdio: 'pipe', serviceName: 'comanda hub', env: process.env }))
      : spawnServerProcess({ dataDir, args, execPath: process.env.COMANDA_NODE ?? 'node' });
  },
  runHubCommand: (args) =>
    collect(
      e.app.isPackaged
        ? utilityChild(e.utilityProcess.fork(COMANDA_BUNDLE, args, { stdio: 'pipe', serviceName: 'comanda command', env: process.env }))
        : spawnCommandProcess(args, process.env.COMANDA_NODE ?? 'node'),
    ),
  // Windows only: the program rule, made by one elevated PowerShell (one UAC prompt)
  fixFirewall:
    process.platform === 'win32'
      ? ({ includePublic, port }) =>
          new Promise((resolve) => {
            const c = firewallFixCommand({ exe: process.execPath, port, includePublic });
            execFile(c.file, c.args, { windowsHide: true, timeout: 120_000 }, (err) =>
              resolve(
                err
                  ? 'The firewall was not changed (the administrator prompt was refused or failed). An administrator can allow comanda in Windows Security → Firewall.'
                  : `comanda is now allowed through the firewall on ${includePublic ? 'private and public' : 'private'} networks. Checking again…`,
              ),
            );
          })
      : undefined,
  // Windows (NSIS): the previous version's kept installer, silent, started again after it; it
  // replaces this version in place (the data folder is not touched). Elsewhere the status
  // window tells the owner how to go back.
  installPrevious:
    process.platform === 'win32'
      ? async (installer) => {
          spawn(installer, ['/S', '--force-run'], { detached: true, stdio: 'ignore', windowsHide: true }).unref();
          e.app.quit();
        }
      : undefined,
  hidden: process.argv.includes('--hidden'),
  trayIconPath: path.join(icons, process.platform === 'darwin' ? 'trayTemplate.png' : 'tray.png'),
  windowIconPath: path.join(icons, 'icon.png'),
  preloadPath: path.join(root, 'dist/electron/preload.cjs'),
  feedUrl,
  linuxAutostart:
    process.platform === 'linux'
      ? { dir: path.join(process.env.XDG_CONFIG_HOME ?? path.join(os.homedir(), '.config'), 'autostart'), exec: process.env.APPIMAGE ?? process.execPath }
      : null,
  log: (message, extra) => console.log(JSON.stringify({ time: new Date().toISOString(), message, ...(extra as object) })),
});
