import fs from 'node:fs';
import path from 'node:path';

/** More folders than this to create at once is a typing mistake, not a backup disk. */
const MAX_NEW_LEVELS = 16;

/**
 * `mkdir -p`, bounded: one mkdir per missing level, each tried once. Node's own
 * `mkdir(…, { recursive: true })` never ends where mkdir answers ENOENT for a parent that
 * exists (`/proc/anything`: it makes the parent, gets EEXIST, retries the child, forever),
 * which spun the hub's main thread at 100 % for good on a backup folder typed in the
 * dashboard. `mode` applies to the folders made here only; existing ones are left as they are.
 */
export function makeDirSync(dir: string, mode?: number): void {
  const missing: string[] = [];
  for (let p = path.resolve(dir); ; p = path.dirname(p)) {
    const s = statOrNull(() => fs.statSync(p), p);
    if (s) {
      if (!s.isDirectory()) throw notAFolder(p);
      break;
    }
    missing.unshift(p);
    if (missing.length > MAX_NEW_LEVELS) throw tooDeep(dir);
  }
  for (const p of missing) {
    try {
      fs.mkdirSync(p, { mode });
    } catch (err: any) {
      if (err.code !== 'EEXIST' || !fs.statSync(p).isDirectory()) throw err;
    }
  }
}

/** makeDirSync on the thread pool: a request never waits on the disk on the thread that answers everyone. */
export async function makeDir(dir: string, mode?: number): Promise<void> {
  const missing: string[] = [];
  for (let p = path.resolve(dir); ; p = path.dirname(p)) {
    const s = await fs.promises.stat(p).catch((err) => (err.code === 'ENOENT' && path.dirname(p) !== p ? null : Promise.reject(err)));
    if (s) {
      if (!s.isDirectory()) throw notAFolder(p);
      break;
    }
    missing.unshift(p);
    if (missing.length > MAX_NEW_LEVELS) throw tooDeep(dir);
  }
  for (const p of missing) {
    try {
      await fs.promises.mkdir(p, { mode });
    } catch (err: any) {
      if (err.code !== 'EEXIST' || !(await fs.promises.stat(p)).isDirectory()) throw err;
    }
  }
}

function statOrNull(stat: () => fs.Stats, p: string): fs.Stats | null {
  try {
    return stat();
  } catch (err: any) {
    if (err.code === 'ENOENT' && path.dirname(p) !== p) return null;
    throw err;
  }
}

function notAFolder(p: string): Error {
  return Object.assign(new Error(`ENOTDIR: ${p} is not a folder`), { code: 'ENOTDIR' });
}

function tooDeep(dir: string): Error {
  return Object.assign(new Error(`ETOODEEP: more than ${MAX_NEW_LEVELS} folders to create for ${dir}`), { code: 'ETOODEEP' });
}

/** The hub's own folders (data dir, backups): its database and secrets are for its owner's account only. */
export const DATA_DIR_MODE = 0o700;
/** The database, its WAL and its backups: readable by the hub's account only. */
export const DATA_FILE_MODE = 0o600;
