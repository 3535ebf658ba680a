import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';

export const DB_FILE = 'comanda.sqlite';
const NAME = /^comanda-(\d{8})-(\d{6})\.sqlite$/;

/** Pages copied per step of an online backup (4 KiB pages: ~4 MB); requests run between steps. */
const PAGES_PER_STEP = 1024;

export interface BackupResult {
  file: string;
  bytes: number;
  ms: number;
}

/**
 * Copies a live database to `dest` with SQLite's online backup, a chunk at a time so the
 * server keeps answering between chunks. Through the server's own connection, its writes
 * during the copy are carried into the copy; through another connection (the CLI while a
 * hub runs), a write restarts the copy, so that one is taken in a single step: one read
 * snapshot, which in WAL mode never blocks the writer. The copy is made a self-contained
 * file (no -wal), checked, and only then given its name: a half-made backup is never a backup.
 */
export async function backupSqlite(source: SQLite.Database, dest: string, opts: { singleStep?: boolean } = {}): Promise<BackupResult> {
  const started = Date.now();
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  const partial = `${dest}.partial`;
  fs.rmSync(partial, { force: true });
  try {
    await source.backup(partial, { progress: ({ totalPages }) => (opts.singleStep ? Math.max(totalPages, 1) * 2 : PAGES_PER_STEP) });
    const copy = new SQLite(partial);
    try {
      copy.pragma('journal_mode = DELETE');
      const check = copy.pragma('quick_check', { simple: true });
      if (check !== 'ok') throw new Error(`the copy failed its check: ${check}`);
    } finally {
      copy.close();
    }
    fs.renameSync(partial, dest);
  } catch (err) {
    fs.rmSync(partial, { force: true });
    throw err;
  }
  return { file: dest, bytes: fs.statSync(dest).size, ms: Date.now() - started };
}

/** A backup of a data dir's database from a connection of its own (the CLI). */
export async function backupDataDir(dataDir: string, dest: string): Promise<BackupResult> {
  const file = path.join(dataDir, DB_FILE);
  if (!fs.existsSync(file)) throw new Error(`no database in ${dataDir}`);
  const source = new SQLite(file, { fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    return await backupSqlite(source, dest, { singleStep: true });
  } finally {
    source.close();
  }
}

/** `comanda-20261124-043000.sqlite` (UTC), so names sort by time. */
export function backupName(nowMs: number): string {
  const iso = new Date(nowMs).toISOString();
  return `comanda-${iso.slice(0, 10).replace(/-/g, '')}-${iso.slice(11, 19).replace(/:/g, '')}.sqlite`;
}

function timeOfName(name: string): number | null {
  const m = NAME.exec(name);
  if (!m) return null;
  const [d, t] = [m[1], m[2]];
  return Date.parse(`${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6)}T${t.slice(0, 2)}:${t.slice(2, 4)}:${t.slice(4)}Z`);
}

/** The backups in a folder, newest first (only files this module named; anything else is left alone). */
export function listBackups(dir: string): { file: string; at: number; bytes: number }[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .map((n) => ({ n, at: timeOfName(n) }))
    .filter((x): x is { n: string; at: number } => x.at !== null)
    .map(({ n, at }) => ({ file: path.join(dir, n), at, bytes: fs.statSync(path.join(dir, n)).size }))
    .sort((a, b) => b.at - a.at);
}

/** Deletes backups older than keepDays; the newest one is always kept, however old. */
export function pruneBackups(dir: string, keepDays: number, nowMs: number): string[] {
  const cutoff = nowMs - keepDays * 86_400_000;
  const [, ...older] = listBackups(dir);
  const removed = older.filter((b) => b.at < cutoff).map((b) => b.file);
  for (const f of removed) fs.rmSync(f, { force: true });
  return removed;
}
