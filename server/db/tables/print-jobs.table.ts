import type { Generated, Selectable } from 'kysely';

/**
 * The print queue (the `pj_` rows). Local bookkeeping of the node that owns the printers:
 * written directly, not through the change log, because every claim and retry changes it.
 */
export interface PrintJobsTable {
  id: string;
  restaurant_id: string;
  /** drawer_kick: no paper, the pulse that opens the cash drawer (printers/encoder.ts drawerPulse) */
  kind: 'kitchen_ticket' | 'receipt' | 'test_page' | 'z_report' | 'drawer_kick';
  /** the printer the job is aimed at now (the backup after a failover) */
  printer_id: string;
  /** the printer it was first meant for */
  original_printer_id: string;
  order_id: string | null;
  station: string | null;
  round: number | null;
  /** the ReceiptLine document, without its marks */
  document: string;
  /** JSON array of marks printed above the document: REPRINT, BACKUP FROM <name> */
  marks: string;
  state: 'queued' | 'printing' | 'printed' | 'failed' | 'skipped';
  attempts: number;
  last_error: string | null;
  /** Unix seconds; a queued job is not tried before then */
  next_attempt_at: number;
  lease_owner: string | null;
  /** Unix seconds; a `printing` job whose lease ran out belongs to a dispatcher that died */
  lease_until: number | null;
  /** Unix seconds when the bytes were first handed to a socket in the current lease */
  write_started_at: number | null;
  printed_at: number | null;
  reprint_of: string | null;
  /** JSON array of the order_items ids a kitchen ticket carries ('[]' for other kinds) */
  line_ids: string;
  /** 1 when the ticket takes its lines back (a VOID ticket) */
  voids: number;
  livemode: number;
  created: number;
  updated: number;
  /** changes of this row so far: bumped by the database on every UPDATE (migration 0702) */
  rev: Generated<number>;
}

/** A row as read. */
export type PrintJobRow = Selectable<PrintJobsTable>;

declare module '../replication.ts' {
  /** local: this node's bookkeeping, outside the change log */
  interface LocalTables {
    print_jobs: true;
  }
}
