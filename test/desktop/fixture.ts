import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach } from 'vitest';
import { runDesktop, type DesktopController, type DesktopOptions } from '../../app/desktop/main.ts';
import { COMANDA_BIN } from '../../app/desktop/server-process.ts';
import { pageHtml } from '../../app/desktop/status-page.ts';
import { FakeChild, FakeHost, FakeUpdater, ManualTimers } from './fake-electron.ts';

// What the desktop tests share: temporary user-data folders, the hub's quiet environment, the
// status window read as a user reads it, and the stand-in Electron booted over fake or real hubs.

/** A maker of temporary folders for one test file; they go when the file's tests are done. */
export function tempDirs(prefix: string): () => string {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
  return () => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), `comanda-${prefix}-`));
    dirs.push(d);
    return d;
  };
}

/** Things to stop after each test (hubs, desktops), stopped in the order they were added. */
export function cleanupsAfterEach(): (() => unknown)[] {
  const cleanups: (() => unknown)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c();
  });
  return cleanups;
}

/** A hub process that neither advertises itself on the network nor fills the test's output. */
export const quiet = { MDNS: 'off', LOG_LEVEL: 'warn' };

/** `comanda ARGS` to its end, as the status window's restore runs it. */
export function runHubCommand(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [COMANDA_BIN, ...args], { env: { ...process.env, ...quiet } }, (err: any, stdout, stderr) => resolve({ code: err ? (err.code ?? 1) : 0, output: `${stdout}${stderr}` }));
  });
}

/** The status window's page as a user reads it (null while none is open). */
export const statusText = (desktop: DesktopController) => {
  const w = desktop.statusWindow() as any;
  return w?.loaded.length ? pageHtml(w.loaded.at(-1)) : null;
};

/** Not the app's first start (that one also opens the tablet window). */
export function notFirstStart(userData: string) {
  const file = path.join(userData, 'desktop.json');
  if (!fs.existsSync(file)) fs.writeFileSync(file, JSON.stringify({ tabletHelpShown: true }));
}

/**
 * The main process with the stand-in Electron over hub children the test drives by hand
 * (`children[i].ready(port)`, a crash), on timers the test moves.
 */
export async function bootOverFakeHubs(userData: string, o: { updater?: FakeUpdater; timers?: ManualTimers } & Partial<DesktopOptions> = {}) {
  const { updater, timers = new ManualTimers(), ...options } = o;
  const host = new FakeHost(userData, updater ?? null);
  const children: FakeChild[] = [];
  const desktop = (await runDesktop(host, {
    spawnServer: () => {
      const c = new FakeChild();
      children.push(c);
      return c;
    },
    hidden: true,
    trayIconPath: 'tray.png',
    preloadPath: '/app/preload.cjs',
    timers,
    ...options,
  })) as DesktopController;
  return { host, timers, children, desktop, tray: host.trays[0] };
}

/** The main process with the stand-in Electron over real `comanda serve` processes. */
export async function bootOverRealHubs(host: FakeHost, options: Pick<DesktopOptions, 'spawnServer'> & Partial<DesktopOptions>) {
  const desktop = (await runDesktop(host, {
    runHubCommand,
    hidden: true,
    trayIconPath: 'tray.png',
    preloadPath: '/app/preload.cjs',
    ...options,
  })) as DesktopController;
  return { host, desktop, tray: host.trays[0] };
}
