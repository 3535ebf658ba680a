import type { Kysely, Transaction } from 'kysely';
import type { DB } from './schema.ts';

type Listener = () => void;

/**
 * Under a burst of writes the dispatchers would otherwise make one pass per commit, each
 * competing with the writes for the database; at most one wake-up per this many ms lets a
 * pass pick up many commits at once. The first commit after a quiet spell wakes at once.
 */
const COALESCE_MS = 5;

/**
 * Runs `fn` in one transaction and, once it has committed, wakes whoever works off the
 * outbox (webhook, print and mail dispatchers, live screens). The wake-up carries nothing:
 * listeners read what is new from the database, so a lost or merged wake-up loses nothing.
 */
export class Transactor {
  private listeners = new Set<Listener>();
  private lastWake = 0;
  private pending: NodeJS.Timeout | null = null;

  constructor(readonly db: Kysely<DB>) {}

  async run<T>(fn: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
    const result = await this.db.transaction().execute(fn);
    this.notify();
    return result;
  }

  onCommit(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  notify(): void {
    if (this.pending) return;
    const wait = this.lastWake + COALESCE_MS - Date.now();
    if (wait <= 0) {
      this.wake();
      return;
    }
    this.pending = setTimeout(() => {
      this.pending = null;
      this.wake();
    }, wait);
  }

  private wake(): void {
    this.lastWake = Date.now();
    for (const l of this.listeners) {
      try {
        l();
      } catch {
        // a listener's failure must never fail the request that committed
      }
    }
  }
}
