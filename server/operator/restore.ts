import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { DATA_DIR_MODE, DATA_FILE_MODE, makeDirSync } from '../make-dir.ts';
import { openDatabase } from '../db/database.ts';
import { rotateEpoch } from '../../sync/epoch.ts';
import { DB_FILE } from './backup.ts';
import { acquireHubLock, HubLockedError, lockHolder } from './hub-lock.ts';

export class RestoreError extends Error {}

export interface RestoreResult {
  restored: string;
  /** where the database it replaced was moved (null when the data dir had none) */
  keptAside: string | null;
  /** the database's new sync identity: the cloud re-syncs from scratch with it */
  epoch: string;
}

/**
 * What a linked hub's database holds that its cloud never acknowledged: the changes a restore
 * would throw away for good (the cloud cannot give back what it never received).
 */
export function unsentChanges(dbFile: string): { changes: number; orders: number } {
  if (!fs.existsSync(dbFile)) return { changes: 0, orders: 0 };
  const db = new SQLite(dbFile, { readonly: true, fileMustExist: true });
  try {
    const hasLink = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sync_link'").get();
    const link = hasLink ? (db.prepare('SELECT push_cursor FROM sync_link WHERE id = 1').get() as { push_cursor: number } | undefined) : undefined;
    if (!link) return { changes: 0, orders: 0 };
    const { origin } = db.prepare('SELECT origin FROM node_state WHERE id = 1').get() as { origin: string };
    const r = db
      .prepare(
        "SELECT count(*) AS changes, count(DISTINCT CASE WHEN table_name = 'orders' THEN row_id END) AS orders FROM change_log WHERE origin = ? AND origin_seq > ?",
      )
      .get(origin, Number(link.push_cursor)) as { changes: number; orders: number };
    return { changes: Number(r.changes), orders: Number(r.orders) };
  } finally {
    db.close();
  }
}

/** Refuses anything that is not a sound comanda database, before a byte of the data dir is touched. */
export function checkBackupFile(file: string): void {
  if (!fs.existsSync(file)) throw new RestoreError(`${file} does not exist`);
  let db: SQLite.Database;
  try {
    db = new SQLite(file, { readonly: true, fileMustExist: true });
  } catch (err: any) {
    throw new RestoreError(`${file} cannot be opened as a database: ${err.message}`);
  }
  try {
    let rows: string[];
    try {
      rows = (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check);
    } catch (err: any) {
      throw new RestoreError(`${file} is not a SQLite database (${err.message})`);
    }
    if (rows.length !== 1 || rows[0] !== 'ok') throw new RestoreError(`${file} failed its integrity check: ${rows.slice(0, 5).join('; ')}`);
    const tables = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name));
    for (const t of ['node_state', 'change_log', 'restaurants', 'orders']) {
      if (!tables.has(t)) throw new RestoreError(`${file} is not a comanda database (no ${t} table)`);
    }
  } finally {
    db.close();
  }
}

/**
 * Puts a backup in place of a data dir's database. Refused while a hub runs on the dir.
 * The backup is checked first; the current database is checkpointed and moved to
 * `replaced/` (never deleted); the restored one is migrated to this version and given a
 * new sync epoch, because its history is no longer the one the cloud holds.
 */
export async function restoreDataDir(dataDir: string, file: string, nowMs: number, opts: { force?: boolean } = {}): Promise<RestoreResult> {
  const holder = lockHolder(dataDir);
  if (holder) throw new HubLockedError(holder, dataDir);
  checkBackupFile(file);
  let unsent: { changes: number; orders: number };
  try {
    unsent = unsentChanges(path.join(dataDir, DB_FILE));
  } catch (err: any) {
    // a damaged database cannot say what it holds: replacing it is the owner's call (--force);
    // it is kept aside all the same
    if (!opts.force) throw new RestoreError(`the current database cannot be read (${err.message}); run again with --force to replace it (it is kept aside)`);
    unsent = { changes: 0, orders: 0 };
  }
  if (unsent.changes > 0 && !opts.force) {
    throw new RestoreError(
      `${unsent.changes} change(s) made on this hub never reached the cloud, ${unsent.orders} order(s) among them; the restore would lose them. ` +
        'Start the hub with the line up and let it sync first, or run again with --force to discard them.',
    );
  }
  // held while we work, so a hub started meanwhile refuses to start
  const lock = acquireHubLock(dataDir);
  try {
    const target = path.join(dataDir, DB_FILE);
    const incoming = `${target}.restoring`;
    fs.copyFileSync(file, incoming);
    fs.chmodSync(incoming, DATA_FILE_MODE);
    const fd = fs.openSync(incoming, 'r+');
    fs.fsyncSync(fd);
    fs.closeSync(fd);

    let keptAside: string | null = null;
    if (fs.existsSync(target)) {
      // fold the WAL into the file so the copy kept aside is whole on its own
      let folded = true;
      try {
        const current = new SQLite(target);
        try {
          current.pragma('wal_checkpoint(TRUNCATE)');
          current.pragma('journal_mode = DELETE');
        } finally {
          current.close();
        }
      } catch {
        // a damaged file cannot be folded: its WAL goes aside with it, as it was
        folded = false;
      }
      const aside = path.join(dataDir, 'replaced');
      makeDirSync(aside, DATA_DIR_MODE);
      keptAside = path.join(aside, `comanda-before-restore-${new Date(nowMs).toISOString().replace(/[:.]/g, '-')}.sqlite`);
      fs.renameSync(target, keptAside);
      if (!folded) for (const extra of ['-wal', '-shm']) if (fs.existsSync(target + extra)) fs.renameSync(target + extra, keptAside + extra);
    }
    for (const extra of ['-wal', '-shm']) fs.rmSync(target + extra, { force: true });
    fs.renameSync(incoming, target);

    const database = await openDatabase({ dataDir });
    try {
      const epoch = await rotateEpoch(database.db);
      return { restored: file, keptAside, epoch };
    } finally {
      await database.close();
    }
  } finally {
    lock.release();
  }
}
