import type { Kysely, Transaction } from 'kysely';
import type { DB } from './schema.ts';

type Listener = () => void;

/**
 * Runs `fn` in one transaction and, once it has committed, wakes whoever works off the
 * outbox (webhook, print and mail dispatchers, live screens). The wake-up carries nothing:
 * listeners read what is new from the database, so a lost wake-up loses nothing.
 */
export class Transactor {
  private listeners = new Set<Listener>();

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
    for (const l of this.listeners) {
      try {
        l();
      } catch {
        // a listener's failure must never fail the request that committed
      }
    }
  }
}
