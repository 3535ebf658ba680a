import fs from 'node:fs';
import type SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';

/**
 * The sync of a group commit (db/transact.ts), off the event loop.
 *
 * With `synchronous = FULL` SQLite syncs the WAL inside COMMIT, on the thread that commits:
 * the hub's one event loop then waits for the disk (milliseconds a batch, far more when the
 * disk is busy) with every request behind it. A batch's transaction commits with NORMAL
 * instead (its pages written to the WAL, not yet synced) and the WAL file is synced on
 * libuv's thread pool while the batch still holds the connection. Nothing of the process
 * reads the database meanwhile (kysely waits for the connection; the raw reads of
 * versions.ts and readRawRows ask `isSyncing` and wait their turn too), and no unit is
 * answered before the sync has ended: a commit is on disk before anyone is told of it, as
 * before. What the event loop gains is the time to read, parse and check the next requests.
 * Every other commit on the connection keeps FULL.
 */
export interface CommitSync {
  /** runs `commit` (a transaction that commits) and resolves once its pages are on disk */
  around<T>(commit: () => Promise<T>): Promise<T>;
}

type SyncFile = (file: string) => Promise<void>;

/** fdatasync of the file on the thread pool: its data and its size, which is what the WAL needs. */
const dataSync: SyncFile = async (file) => {
  const handle = await fs.promises.open(file, 'r+');
  try {
    await handle.datasync();
  } finally {
    await handle.close();
  }
};

const registered = new WeakMap<object, CommitSync>();
const syncing = new WeakSet<SQLite.Database>();

/** True while a batch's commit is written but not yet synced: a raw read must wait (see above). */
export function isSyncing(connection: SQLite.Database): boolean {
  return syncing.has(connection);
}

/**
 * Makes the group commits of `db` sync off the event loop (see CommitSync). `syncFile`
 * is the sync itself (a test may watch or slow it).
 */
export function registerCommitSync(db: Kysely<any>, connection: SQLite.Database, syncFile: SyncFile = dataSync): CommitSync {
  const wal = `${connection.name}-wal`;
  // Whether this process may open the WAL to sync it: unknown until the file exists (the
  // first commit makes it); where it cannot (a read-only mount, a platform's locking),
  // SQLite keeps syncing inside COMMIT.
  let usable: boolean | undefined;
  const canSync = () => {
    if (usable !== undefined) return usable;
    try {
      fs.closeSync(fs.openSync(wal, 'r+'));
      usable = true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') usable = false;
    }
    return usable === true;
  };
  const sync: CommitSync = {
    async around(commit) {
      if (!canSync()) return commit();
      connection.pragma('synchronous = NORMAL');
      let result: Awaited<ReturnType<typeof commit>>;
      try {
        result = await commit();
      } finally {
        connection.pragma('synchronous = FULL');
      }
      syncing.add(connection);
      try {
        await syncFile(wal);
      } finally {
        syncing.delete(connection);
      }
      return result;
    },
  };
  registered.set(db.getExecutor().adapter, sync);
  return sync;
}

/** The commit sync of `db`'s connection, if it has one (a SQLite file). */
export function commitSyncOf(db: Kysely<any>): CommitSync | undefined {
  return registered.get(db.getExecutor().adapter);
}
