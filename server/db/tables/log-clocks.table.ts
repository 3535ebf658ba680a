/**
 * Per restaurant ('' for entries of no restaurant): the last stamp handed out or applied for
 * it; its row lock orders the restaurant's log writes (db/log-positions.ts). Local, never synced.
 */
export interface LogClocksTable {
  restaurant_id: string;
  hlc: string | null;
}

declare module '../replication.ts' {
  /** local: this node's bookkeeping, outside the change log */
  interface LocalTables {
    log_clocks: true;
  }
}
