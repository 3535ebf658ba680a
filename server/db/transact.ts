import { sql, type Kysely, type Transaction } from 'kysely';
import { commitSyncOf } from './commit-sync.ts';
import { runShape } from './statement-shapes.ts';
import { beginChanges, discardChanges, flushChanges, takeWrittenScopes } from './records.ts';
import type { DB } from './schema.ts';

/**
 * Called after a commit with the scopes (restaurant ids) its units logged changes for; none
 * given (a notify from elsewhere) means any may have changed.
 */
type Listener = (scopes?: ReadonlySet<string>) => void;

/** PostgreSQL's deadlock_detected and serialization_failure: the unit is rolled back whole. */
const RETRYABLE = new Set(['40P01', '40001']);
const RETRIES = 3;
type Work<T> = (trx: Transaction<DB>) => Promise<T>;
type Outcome = { ok: true; value: unknown } | { ok: false; err: unknown };
type Settled<T> = { ok: true; value: T } | { ok: false; err: unknown };
const ok = <T>(value: T): Settled<T> => ({ ok: true, value });
const failed = (err: unknown): Settled<never> => ({ ok: false, err });
/** batches that may hold the connection in a row while their syncs run (see drain) */
const PIPELINE = 4;

interface Unit {
  fn: Work<unknown>;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

export interface TransactorOptions {
  /**
   * Group commit (SQLite): units of work that arrive together share one transaction, each
   * inside its own savepoint, and are answered once it has committed. SQLite has one
   * writer and one connection here, so a commit per unit only adds work; PostgreSQL runs
   * writers side by side on a pool and keeps one transaction per unit.
   */
  groupCommit?: boolean;
  /** most units in one shared transaction, so reads waiting for the connection are not starved */
  maxBatch?: number;
}

/**
 * Runs units of work in transactions and, once they have committed, wakes whoever works off
 * the outbox (webhook, print and mail dispatchers, live screens). The wake-up carries
 * nothing: listeners read what is new from the database, so a lost wake-up loses nothing.
 * A unit's result is handed back only after its commit, and a unit that fails leaves
 * nothing behind, alone or in a group.
 */
export class Transactor {
  private listeners = new Set<Listener>();
  private queue: Unit[] = [];
  private draining = false;
  /** set while a drain holding the connection waits for the next unit (see drain) */
  private wake: (() => void) | null = null;
  private readonly groupCommit: boolean;
  private readonly maxBatch: number;

  constructor(
    readonly db: Kysely<DB>,
    opts: TransactorOptions = {},
  ) {
    this.groupCommit = opts.groupCommit ?? false;
    this.maxBatch = opts.maxBatch ?? 64;
  }

  async run<T>(fn: Work<T>): Promise<T> {
    if (!this.groupCommit) {
      const { result, scopes } = await this.alone(fn);
      this.notify(scopes);
      return result;
    }
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ fn, resolve: resolve as (v: unknown) => void, reject });
      this.wake?.();
      if (!this.draining) {
        this.draining = true;
        // One turn of the event loop lets every request that is already readable queue its
        // unit: they then commit together.
        setImmediate(() => void this.drain());
      }
    });
  }

  /**
   * One transaction for one unit. PostgreSQL may abort a unit that deadlocked with another
   * or lost a serialization race; nothing of it was kept or sent, so it simply runs again.
   */
  private async alone<T>(fn: Work<T>): Promise<{ result: T; scopes: ReadonlySet<string> }> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.db.transaction().execute(async (trx) => {
          const result = await unitOfWork(trx, fn);
          return { result, scopes: takeWrittenScopes(trx) };
        });
      } catch (err) {
        if (attempt >= RETRIES || !RETRYABLE.has((err as { code?: string })?.code ?? '')) throw err;
        await new Promise((r) => setTimeout(r, Math.random() * 10 * attempt));
      }
    }
  }

  private async drain(): Promise<void> {
    while (this.queue.length) {
      if (!commitSyncOf(this.db)) {
        const batch = this.queue.splice(0, this.maxBatch);
        this.settle(batch, await this.commitBatch(this.db, batch).then(ok, failed));
        continue;
      }
      // A SQLite file: each batch commits unsynced and its WAL is synced on the thread pool
      // (db/commit-sync.ts). The connection stays held until every sync has ended, so nothing
      // outside the units reads a commit before it is on disk; units that arrived meanwhile
      // commit as the next batch while the sync before runs (a later sync covers it too), and
      // each batch is answered once its own sync has ended. At most PIPELINE batches hold the
      // connection in a row, so reads waiting for it are not starved.
      await this.db.connection().execute(async (db) => {
        const answered: Promise<void>[] = [];
        for (let n = 0; n < PIPELINE; n++) {
          if (!this.queue.length) {
            // the next unit, or the end of the syncs under way, whichever comes first
            const arrived = new Promise<boolean>((r) => (this.wake = () => r(true)));
            const more = await Promise.race([arrived, Promise.all(answered).then(() => false)]);
            this.wake = null;
            if (!more) break;
            // one turn: the other requests already readable queue their units too
            await new Promise((r) => setImmediate(r));
          }
          const batch = this.queue.splice(0, this.maxBatch);
          const done = await commitSyncOf(this.db)!.commitUnsynced(() => this.commitBatch(db, batch)).then(ok, failed);
          if (!done.ok) {
            this.settle(batch, done);
            continue;
          }
          answered.push(done.value.synced.then(() => this.settle(batch, ok(done.value.result)), (err) => this.settle(batch, failed(err))));
        }
        await Promise.all(answered);
      });
    }
    this.draining = false;
  }

  /** One batch in one transaction on `db`, each unit in its own savepoint. */
  private commitBatch(db: Kysely<DB>, batch: Unit[]): Promise<{ outcomes: Outcome[]; scopes: ReadonlySet<string> }> {
    return db.transaction().execute(async (trx) => {
      // Alone, a unit needs no savepoint: its failure rolls the transaction back.
      if (batch.length === 1) {
        const value = await unitOfWork(trx, batch[0].fn);
        return { outcomes: [{ ok: true as const, value }], scopes: takeWrittenScopes(trx) };
      }
      const out: Outcome[] = [];
      for (const unit of batch) {
        await savepoint(trx, 'savepoint unit');
        try {
          out.push({ ok: true, value: await unitOfWork(trx, unit.fn) });
          await savepoint(trx, 'release unit');
        } catch (err) {
          await savepoint(trx, 'rollback to unit');
          await savepoint(trx, 'release unit');
          out.push({ ok: false, err });
        }
      }
      return { outcomes: out, scopes: takeWrittenScopes(trx) };
    });
  }

  /** Tells a batch's units how it went, once it is committed (and synced) or failed whole. */
  private settle(batch: Unit[], done: Settled<{ outcomes: Outcome[]; scopes: ReadonlySet<string> }>): void {
    if (!done.ok) {
      // Nothing of the batch committed (or its commit could not be synced): every unit gets the error.
      for (const unit of batch) unit.reject(done.err);
      return;
    }
    this.notify(done.value.scopes);
    batch.forEach((unit, i) => {
      const o = done.value.outcomes[i];
      if (o.ok) unit.resolve(o.value);
      else unit.reject(o.err);
    });
  }

  onCommit(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  notify(scopes?: ReadonlySet<string>): void {
    for (const l of this.listeners) {
      try {
        l(scopes);
      } catch {
        // a listener's failure must never fail the request that committed
      }
    }
  }
}

/** A savepoint statement of group commit, prepared once (two for every unit of a batch). */
const savepoint = (trx: Transaction<DB>, text: 'savepoint unit' | 'release unit' | 'rollback to unit') =>
  runShape(trx, text, () => ({ compile: () => sql.raw(text).compile(trx) }), []);

/** One unit: its changes are logged in one go at its end, or forgotten if it fails. */
async function unitOfWork<T>(trx: Transaction<DB>, fn: Work<T>): Promise<T> {
  beginChanges(trx);
  try {
    const result = await fn(trx);
    await flushChanges(trx);
    return result;
  } finally {
    discardChanges(trx);
  }
}
