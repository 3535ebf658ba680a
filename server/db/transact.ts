import { sql, type Kysely, type Transaction } from 'kysely';
import { runShape } from './statement-shapes.ts';
import { beginChanges, discardChanges, flushChanges, takeWrittenScopes } from './records.ts';
import type { DB } from './schema.ts';
import { forgetAll } from './transaction-memo.ts';
import { holdPositions, positionsMark, restorePositions, settlePositions } from './log-positions.ts';

/**
 * Called after a commit with the scopes (restaurant ids) its units logged changes for; none
 * given (a notify from elsewhere) means any may have changed.
 */
type Listener = (scopes?: ReadonlySet<string>) => void;

/** PostgreSQL's deadlock_detected and serialization_failure: the unit is rolled back whole. */
const RETRYABLE = new Set(['40P01', '40001']);
const RETRIES = 3;
type Work<T> = (trx: Transaction<DB>) => Promise<T>;

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
      const batch = this.queue.splice(0, this.maxBatch);
      let outcomes: ({ ok: true; value: unknown } | { ok: false; err: unknown })[];
      let scopes: ReadonlySet<string> | undefined;
      try {
        outcomes = await this.db.transaction().execute(async (trx) => {
          // the batch's log positions and stamps are written once, at its end (db/log-positions.ts)
          holdPositions(trx);
          // Alone, a unit needs no savepoint: its failure rolls the transaction back.
          if (batch.length === 1) {
            const value = await unitOfWork(trx, batch[0].fn);
            await settlePositions(trx);
            scopes = takeWrittenScopes(trx);
            return [{ ok: true as const, value }];
          }
          const out: typeof outcomes = [];
          for (const unit of batch) {
            const mark = positionsMark(trx);
            await savepoint(trx, 'savepoint unit');
            try {
              out.push({ ok: true, value: await unitOfWork(trx, unit.fn) });
              await savepoint(trx, 'release unit');
            } catch (err) {
              forgetAll(trx);
              restorePositions(trx, mark);
              await savepoint(trx, 'rollback to unit');
              await savepoint(trx, 'release unit');
              out.push({ ok: false, err });
            }
          }
          await settlePositions(trx);
          scopes = takeWrittenScopes(trx);
          return out;
        });
      } catch (err) {
        // Nothing of the batch committed: every unit gets the error.
        for (const unit of batch) unit.reject(err);
        continue;
      }
      this.notify(scopes);
      batch.forEach((unit, i) => {
        const o = outcomes[i];
        if (o.ok) unit.resolve(o.value);
        else unit.reject(o.err);
      });
    }
    this.draining = false;
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
