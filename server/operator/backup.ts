import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { DATA_DIR_MODE, DATA_FILE_MODE, makeDir } from '../make-dir.ts';
import { monotonicMs } from '../clock.ts';

export const DB_FILE = 'comanda.sqlite';
/** The backup thread's nice value (Linux): below the request thread, still well ahead of idle work. */
const BACKUP_NICE = 10;
const NAME = /^comanda-(\d{8})-(\d{6})\.sqlite$/;

// Plain CommonJS for an eval'd worker: it needs no loader and no app code.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
// The copy and its check are background work: on Linux this thread alone (not the process)
// yields the CPU to the thread answering requests, from before it loads anything. Elsewhere
// setPriority would act on the whole process, so it is left as it is.
if (process.platform === 'linux') {
  try {
    const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
    require('node:os').setPriority(tid, workerData.nice);
  } catch {
    // no /proc: the copy runs at the process's priority
  }
}
const SQLite = require(workerData.module);
(async () => {
  try {
    const source = new SQLite(workerData.source, { readonly: true, fileMustExist: true });
    try {
      source.pragma('busy_timeout = 5000');
      // after the first small step, the rest in one: one read snapshot of the whole database
      await source.backup(workerData.partial, { progress: ({ totalPages }) => Math.max(totalPages, 1) * 2 });
    } finally {
      source.close();
    }
    const copy = new SQLite(workerData.partial);
    try {
      copy.pragma('journal_mode = DELETE');
      parentPort.postMessage({ check: copy.pragma('quick_check', { simple: true }) });
    } finally {
      copy.close();
    }
  } catch (err) {
    parentPort.postMessage({ error: String(err && err.message || err) });
  }
})();
`;

export interface BackupResult {
  file: string;
  bytes: number;
  ms: number;
}

/**
 * Copies a live database to `dest` with SQLite's online backup API, on a worker thread with
 * a connection of its own: the copy is one read snapshot (in WAL mode it never blocks the
 * writer, and everything committed before it started is in it), and neither the copy nor
 * its check holds up a request. The copy is made a self-contained file (no -wal), passes
 * quick_check, and only then gets its name: a half-made backup is never a backup.
 */
export async function backupFile(sourceFile: string, dest: string): Promise<BackupResult> {
  const started = monotonicMs();
  if (!fs.existsSync(sourceFile)) throw new Error(`no database at ${sourceFile}`);
  await makeDir(path.dirname(dest), DATA_DIR_MODE);
  const partial = `${dest}.partial`;
  await fs.promises.rm(partial, { force: true });
  try {
    // made here first so the copy (an empty file is an empty database) is never readable by others
    await fs.promises.writeFile(partial, '', { flag: 'wx', mode: DATA_FILE_MODE });
    const module = createRequire(import.meta.url).resolve('better-sqlite3');
    const worker = new Worker(WORKER, { eval: true, workerData: { source: sourceFile, partial, module, nice: BACKUP_NICE } });
    const outcome = await new Promise<{ check?: string; error?: string }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`backup worker ended (${code})`)));
    });
    await worker.terminate();
    if (outcome.error) throw new Error(outcome.error);
    if (outcome.check !== 'ok') throw new Error(`the copy failed its check: ${outcome.check}`);
    fs.renameSync(partial, dest);
  } catch (err) {
    await fs.promises.rm(partial, { force: true });
    throw err;
  }
  return { file: dest, bytes: fs.statSync(dest).size, ms: Math.round(monotonicMs() - started) };
}

/** A backup of a data dir's database (the CLI; safe while the hub runs). */
export function backupDataDir(dataDir: string, dest: string): Promise<BackupResult> {
  return backupFile(path.join(dataDir, DB_FILE), dest);
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

/**
 * Deletes backups older than keepDays; the newest one is always kept, however old. Off the
 * request thread: freeing a file of gigabytes takes the file system seconds (5.3 GB: ~3 s on
 * ext4), which a synchronous delete would hold every request for.
 */
export async function pruneBackups(dir: string, keepDays: number, nowMs: number): Promise<string[]> {
  const cutoff = nowMs - keepDays * 86_400_000;
  const [, ...older] = listBackups(dir);
  const removed = older.filter((b) => b.at < cutoff).map((b) => b.file);
  // copies a crash or a shutdown cut short (never named as backups) go after a day
  for (const n of fs.readdirSync(dir).filter((n) => n.endsWith('.sqlite.partial'))) {
    const f = path.join(dir, n);
    if (fs.statSync(f).mtimeMs < nowMs - 86_400_000) removed.push(f);
  }
  for (const f of removed) await fs.promises.rm(f, { force: true });
  return removed;
}
