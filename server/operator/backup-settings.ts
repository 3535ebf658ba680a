import fs from 'node:fs';
import path from 'node:path';
import type { BackupConfig } from '../config.ts';
import type { Executor } from '../db/records.ts';

const NAME = 'backups';

/** What the owner set in the dashboard; each key left out keeps comanda.json's value. */
export interface BackupOverrides {
  enabled?: boolean;
  dir?: string;
  keepDays?: number;
}

export async function readBackupOverrides(db: Executor): Promise<BackupOverrides> {
  const row = await db.selectFrom('hub_settings').select('value').where('name', '=', NAME).executeTakeFirst();
  return row ? (JSON.parse(row.value) as BackupOverrides) : {};
}

export async function saveBackupOverrides(db: Executor, nowMs: number, patch: BackupOverrides): Promise<BackupOverrides> {
  const next = { ...(await readBackupOverrides(db)), ...patch };
  const value = JSON.stringify(next);
  const updated = Math.floor(nowMs / 1000);
  await db
    .insertInto('hub_settings')
    .values({ name: NAME, value, updated })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value, updated }))
    .execute();
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

/**
 * Whether backups can be written there now (a USB disk that is plugged in, a synced folder
 * that exists): the folder is made if missing and a file is written and removed. The
 * message says why not, for the owner to fix.
 */
export function checkBackupDir(dir: string): string | null {
  try {
    fs.mkdirSync(dir, { recursive: true });
    const probe = path.join(dir, `.comanda-write-test-${process.pid}`);
    fs.writeFileSync(probe, 'ok');
    fs.rmSync(probe);
    return null;
  } catch (err: any) {
    return `cannot write backups to ${dir} (${err.code ?? err.message})`;
  }
}
