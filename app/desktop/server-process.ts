import { fork } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChildLike } from './host.ts';

/**
 * bin/comanda of this checkout or of the packaged app. Inside the asar is fine: Electron
 * run as Node reads it, and loads better-sqlite3's binary from app.asar.unpacked.
 */
export const COMANDA_BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/comanda');

export interface ServerProcessOptions {
  dataDir: string;
  /** extra flags for `comanda serve` (tests pin --port and --host) */
  args?: string[];
  env?: NodeJS.ProcessEnv;
  /** the Node to run it with; in Electron, Electron itself run as Node */
  execPath?: string;
}

/**
 * `comanda serve --json` as a child with an IPC channel: its first stdout line says where
 * it listens, its logs (stderr) go to the app's log file, its status reports and our
 * shutdown request travel over IPC. Inside Electron, process.execPath is the Electron
 * binary; ELECTRON_RUN_AS_NODE makes it a plain Node for the child.
 */
export function spawnServerProcess(o: ServerProcessOptions): ChildLike {
  return fork(COMANDA_BIN, ['serve', '--data-dir', o.dataDir, '--json', ...(o.args ?? [])], {
    execPath: o.execPath ?? process.execPath,
    env: { ...process.env, ...o.env, ELECTRON_RUN_AS_NODE: '1' },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
}
