import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { isRunning } from '../helpers/comanda-process.ts';
import { freePort } from '../helpers/free-port.ts';
import { until } from '../helpers/until.ts';

// The packaged app itself (dist/…-unpacked, made by `npm run desktop:dist -- --dir`), started
// by Playwright as a user would start it. Where: .github/workflows/desktop.yml on Windows,
// macOS and Linux, or any machine with a display where electron-builder could download
// Electron. COMANDA_APP_EXECUTABLE names the binary; else the one for this OS is looked for.
// Playwright drives Electron through its inspector, so that build keeps the
// EnableNodeCliInspectArguments fuse on (the workflow packs it so); the shipped build has it off.
function appExecutable(): string {
  if (process.env.COMANDA_APP_EXECUTABLE) return path.resolve(process.env.COMANDA_APP_EXECUTABLE);
  const out = process.env.COMANDA_APP_DIR ?? 'dist/installers';
  const candidates =
    process.platform === 'win32'
      ? [path.join(out, 'win-unpacked', 'comanda.exe')]
      : process.platform === 'darwin'
        ? [path.join(out, 'mac-arm64', 'comanda.app', 'Contents', 'MacOS', 'comanda'), path.join(out, 'mac', 'comanda.app', 'Contents', 'MacOS', 'comanda')]
        : [path.join(out, 'linux-unpacked', 'comanda')];
  const found = candidates.find((c) => fs.existsSync(c));
  if (!found) throw new Error(`no packaged app at ${candidates.join(' or ')}: run npm run desktop:dist -- --dir first, or set COMANDA_APP_EXECUTABLE`);
  return path.resolve(found);
}

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

const running: ElectronApplication[] = [];
afterEach(async () => {
  for (const app of running.splice(0)) await app.close().catch(() => {});
});

/** Starts the packaged app with a home of its own (its data dir in there) and the hub on `port`. */
async function launch(port: number) {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-app-'));
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    HOME: home,
    USERPROFILE: home,
    APPDATA: path.join(home, 'AppData', 'Roaming'),
    LOCALAPPDATA: path.join(home, 'AppData', 'Local'),
    XDG_CONFIG_HOME: path.join(home, '.config'),
    PORT: String(port),
    MDNS: 'off',
  };
  const app = await _electron.launch({ executablePath: appExecutable(), args: [], env });
  running.push(app);
  const userData = await app.evaluate(({ app: a }) => a.getPath('userData'));
  return { app, home, userData, lock: path.join(userData, 'data', 'hub.lock') };
}

const hubPid = (lock: string) => {
  try {
    return JSON.parse(fs.readFileSync(lock, 'utf8')).pid as number;
  } catch {
    return null;
  }
};

describe('the packaged desktop app (real Electron)', () => {
  it('opens on the back office, hands outside links to the browser, restarts a crashed hub, and quitting stops the hub', async () => {
    const port = await freePort();
    const { app, lock } = await launch(port);
    const base = `http://127.0.0.1:${port}`;
    // the window shows the hub's own back office (the first start also opens the tablet page)
    const win = await until('the back office window', () => app.windows().find((w) => w.url().startsWith(`${base}/app/`)));
    await win.waitForLoadState('domcontentloaded');
    expect((await fetch(`${base}/health`)).status).toBe(200);
    await until('the tablet page', () => app.windows().some((w) => w.url().startsWith('data:text/html')), 60_000);

    // a link to elsewhere is not followed in the app: it goes to the system browser
    await app.evaluate(({ shell }) => {
      (globalThis as any).__opened = [];
      shell.openExternal = async (url: string) => void (globalThis as any).__opened.push(url);
    });
    // (runs in the page; this file is type-checked without the DOM library)
    await win.evaluate(() => {
      (globalThis as any).location.href = 'https://example.com/help';
    });
    expect(await until('the system browser', () => app.evaluate(() => ((globalThis as any).__opened as string[]).length > 0 && (globalThis as any).__opened), 60_000)).toEqual(['https://example.com/help']);
    expect(win.url()).toMatch(new RegExp(`^${base}/app/`));

    // the hub dies: it is started again on the same address
    const first = hubPid(lock)!;
    expect(first).toBeGreaterThan(0);
    process.kill(first, 'SIGKILL');
    await until('a new hub', () => {
      const pid = hubPid(lock);
      return pid !== null && pid !== first;
    }, 60_000);
    await until('the new hub answering', async () => (await fetch(`${base}/health`).catch(() => null))?.status === 200, 60_000);

    // quitting stops the hub (gracefully: its lock released) and frees the port
    const hub = hubPid(lock)!;
    await app.close();
    running.length = 0;
    await until('the port to be free', async () => !(await listening(port)), 60_000);
    expect(fs.existsSync(lock)).toBe(false);
    expect(isRunning(hub)).toBe(false);
  });

  it('the hub goes with the app when the app is killed', async () => {
    const port = await freePort();
    const { app, lock } = await launch(port);
    await until('the hub', async () => (await fetch(`http://127.0.0.1:${port}/health`).catch(() => null))?.status === 200, 60_000);
    const hub = hubPid(lock)!;
    // the app's own main process: on Windows app.process() is the cmd.exe wrapper Playwright
    // started it through, and killing that leaves the app running
    const appPid = await app.evaluate(() => process.pid);
    process.kill(appPid, 'SIGKILL');
    running.length = 0;
    await until('the hub to end', () => !isRunning(hub), 60_000);
    await until('the port to be free', async () => !(await listening(port)), 60_000);
  });
});
