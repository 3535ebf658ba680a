import { fork } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChildLike } from './host.ts';

/**
 * bin/comanda of this checkout or of the packaged app (inside app.asar: Electron reads it
 * there, and loads better-sqlite3's binary from app.asar.unpacked). It runs the built hub.
 */
export const COMANDA_BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/comanda');
/**
 * The hub bundle bin/comanda runs, for Electron's utility process (the packaged app): a .mjs,
 * so its module format needs no package.json lookup inside the asar.
 */
export const COMANDA_BUNDLE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/hub/comanda.mjs');

export interface ServerProcessOptions {
  dataDir: string;
  /** extra flags for `comanda serve` (tests pin --port and --host) */
  args?: string[];
  env?: NodeJS.ProcessEnv;
  /** the Node to run it with */
  execPath?: string;
}

/** `comanda serve --json` with the app's data dir: its first stdout line says where it listens. */
export function serverArgs(o: Pick<ServerProcessOptions, 'dataDir' | 'args'>): string[] {
  return ['serve', '--data-dir', o.dataDir, '--json', ...(o.args ?? [])];
}

/**
 * The server as a Node child with an IPC channel (the app run from a checkout, and tests):
 * its logs (stderr) go to the app's log file, its status reports and our shutdown request
 * travel over IPC, and it stops by itself when that channel closes because we died.
 */
export function spawnServerProcess(o: ServerProcessOptions): ChildLike {
  return fork(COMANDA_BIN, serverArgs(o), {
    execPath: o.execPath ?? process.execPath,
    // built JavaScript: no loader or flag of ours (a parent run through tsx passes its own on)
    execArgv: [],
    env: { ...process.env, ...o.env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
}

/** Runs a ChildLike to its end, collecting what it wrote (a `comanda restore` from the status window). */
export function collect(child: ChildLike): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    let output = '';
    child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
    child.on('exit', (code) => resolve({ code, output }));
    child.on('error', (err) => resolve({ code: null, output: err.message }));
  });
}

/** Any other `comanda` command as a Node child (the app run from a checkout). */
export function spawnCommandProcess(args: string[], execPath?: string): ChildLike {
  return fork(COMANDA_BIN, args, { execPath: execPath ?? process.execPath, execArgv: [], stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
}
