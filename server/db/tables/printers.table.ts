import type { Selectable } from 'kysely';

/** Network printers of the venue (the `prt_` records). */
export interface PrintersTable {
  id: string;
  restaurant_id: string;
  name: string;
  /** JSON: { type: 'tcp', host, port } or { type: 'virtual' } (prints nowhere, jobs kept for preview); usb, serial would add their own shape */
  transport: string;
  language: 'escpos' | 'starprnt';
  /** 58 or 80 (mm) */
  paper_width: number;
  /** JSON array of station keys this printer gets kitchen tickets for */
  stations: string;
  prints_receipts: number;
  /** 1: a cash drawer hangs on its kick-out port; cash payments open it */
  cash_drawer: number;
  backup_printer_id: string | null;
  is_active: number;
  created: number;
  updated: number;
}

/** A row as read. */
export type PrinterRow = Selectable<PrintersTable>;

declare module '../replication.ts' {
  /** replicated: rows are records, written through db/records.ts and carried by sync */
  interface ReplicatedTables {
    printers: true;
  }
}
