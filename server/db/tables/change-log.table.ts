import type { Selectable } from 'kysely';

/**
 * Append-only log of every mutation of a replicated record. `seq` is this node's gap-free,
 * commit-ordered position (what live screens resume from); `origin`/`origin_seq` say which
 * node made the change and where in that node's own order, which is what sync ships.
 */
export interface ChangeLogTable {
  seq: number;
  op_id: string;
  origin: string;
  origin_seq: number;
  restaurant_id: string | null;
  table_name: string;
  row_id: string;
  op: 'insert' | 'update' | 'delete';
  /** JSON of the row after the change; for a delete, the last state (the tombstone). */
  data: string;
  created: number;
  /** hybrid logical clock of the change (sync/hlc.ts); null on entries older than sync */
  hlc: string | null;
  /** JSON string[] of the columns an update set; null for every column */
  fields: string | null;
}

/** A row as read. */
export type ChangeRow = Selectable<ChangeLogTable>;

declare module '../replication.ts' {
  /** local: this node's bookkeeping, outside the change log */
  interface LocalTables {
    change_log: true;
  }
}
