import type { Selectable } from 'kysely';

/** Last known status of each printer, as the dispatcher saw it (local bookkeeping). */
export interface PrinterStatusTable {
  printer_id: string;
  restaurant_id: string;
  state: 'online' | 'offline' | 'paper_out' | 'error';
  detail: string | null;
  /** Unix seconds */
  checked_at: number;
}

/** A row as read. */
export type PrinterStatusRow = Selectable<PrinterStatusTable>;

declare module '../replication.ts' {
  /** local: this node's bookkeeping, outside the change log */
  interface LocalTables {
    printer_status: true;
  }
}
