import fs from 'node:fs';
import path from 'node:path';
import type { BackupConfig } from '../config.ts';
import type { Executor } from '../db/records.ts';
import { DATA_DIR_MODE, DATA_FILE_MODE, makeDir } from '../make-dir.ts';
import { readHubSetting, writeHubSetting } from './hub-settings.ts';

const NAME = 'backups';

/** What the owner set in the dashboard; each key left out keeps comanda.json's value. */
export interface BackupOverrides {
  enabled?: boolean;
  dir?: string;
  keepDays?: number;
}

export async function readBackupOverrides(db: Executor): Promise<BackupOverrides> {
  return readHubSetting<BackupOverrides>(db, NAME);
}

export async function saveBackupOverrides(db: Executor, nowMs: number, patch: BackupOverrides): Promise<BackupOverrides> {
  const next = { ...(await readBackupOverrides(db)), ...patch };
  await writeHubSetting(db, NAME, nowMs, next);
  return next;
}

/** The backup settings in force: the file's, with the dashboard's laid over; dir made absolute. */
export function effectiveBackupConfig(dataDir: string, file: BackupConfig, o: BackupOverrides): BackupConfig {
  return {
    enabled: o.enabled ?? file.enabled,
    dir: path.resolve(dataDir, o.dir ?? file.dir),
    keepDays: o.keepDays ?? file.keepDays,
    schedule: file.schedule,
  };
}

/** A disk that does not answer in this long (a hung network share) is refused rather than waited for. */
const PROBE_TIMEOUT_MS = 5_000;

/**
 * Whether backups can be written there now (a USB disk that is plugged in, a synced folder
 * that exists): the folder must be absolute, is made if missing (bounded, see make-dir.ts)
 * and a file is written and removed. All of it on the thread pool with a time limit, so a
 * bad folder is refused at once and a hung disk never holds the request thread. The message
 * says why not, for the owner to fix; null when it can be written.
 */
export async function probeBackupDir(dir: string, timeoutMs = PROBE_TIMEOUT_MS): Promise<string | null> {
  if (!path.isAbsolute(dir)) return `the backup folder must be a full path (like /media/usb/comanda-backups), not ${dir}`;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`cannot write backups to ${dir} (the disk did not answer within ${timeoutMs / 1000} s)`), timeoutMs);
  });
  const probe = (async () => {
    try {
      await makeDir(dir, DATA_DIR_MODE);
      const file = path.join(dir, `.comanda-write-test-${process.pid}-${Date.now()}`);
      await fs.promises.writeFile(file, 'ok', { flag: 'wx', mode: DATA_FILE_MODE });
      await fs.promises.rm(file);
      return null;
    } catch (err: any) {
      return `cannot write backups to ${dir} (${err.code ?? err.message})`;
    }
  })();
  try {
    return await Promise.race([probe, late]);
  } finally {
    clearTimeout(timer);
  }
}
