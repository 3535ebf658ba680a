import fs from 'node:fs';
import path from 'node:path';
import { DATA_DIR_MODE, makeDirSync } from '../make-dir.ts';

export const LOCK_FILE = 'hub.lock';

export interface LockInfo {
  pid: number;
  startedAt: number;
  url?: string;
}

/** Whether a process of this id is alive (a kill -9'd hub leaves its lock file behind). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err: any) {
    // EPERM: alive, owned by someone else
    return err.code === 'EPERM';
  }
}

/** The hub holding this data dir, or null when none runs (a stale lock is not a holder). */
export function lockHolder(dataDir: string): LockInfo | null {
  let info: LockInfo;
  try {
    info = JSON.parse(fs.readFileSync(path.join(dataDir, LOCK_FILE), 'utf8'));
  } catch {
    return null;
  }
  if (!Number.isInteger(info?.pid)) return null;
  return info.pid === process.pid || alive(info.pid) ? info : null;
}

export class HubLockedError extends Error {
  constructor(readonly holder: LockInfo, dataDir: string) {
    super(`a hub (pid ${holder.pid}) is running on ${dataDir}; stop it first`);
  }
}

/**
 * Marks the data dir as in use by this process until release(), so restore (and a second
 * hub) can refuse. Taking it is atomic (O_EXCL); a lock left by a dead process is taken over.
 */
export function acquireHubLock(dataDir: string, extra: Omit<LockInfo, 'pid' | 'startedAt'> = {}): { release(): void; update(extra: Partial<LockInfo>): void } {
  makeDirSync(dataDir, DATA_DIR_MODE);
  const file = path.join(dataDir, LOCK_FILE);
  let info: LockInfo = { pid: process.pid, startedAt: Date.now(), ...extra };
  for (let attempt = 0; ; attempt++) {
    try {
      fs.writeFileSync(file, JSON.stringify(info), { flag: 'wx' });
      break;
    } catch (err: any) {
      if (err.code !== 'EEXIST' || attempt > 2) throw err;
      const holder = lockHolder(dataDir);
      if (holder && holder.pid !== process.pid) throw new HubLockedError(holder, dataDir);
      fs.rmSync(file, { force: true });
    }
  }
  let released = false;
  return {
    update(more) {
      info = { ...info, ...more };
      if (!released) fs.writeFileSync(file, JSON.stringify(info));
    },
    release() {
      if (released) return;
      released = true;
      if (lockHolder(dataDir)?.pid === process.pid) fs.rmSync(file, { force: true });
    },
  };
}
