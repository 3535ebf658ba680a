import type { QrOrderType } from '../../model/orders.ts';

/** A printed QR code: a table's (dine-in) or the counter's (takeout) door to guest ordering. */
export interface QrCodesTable {
  id: string;
  restaurant_id: string;
  /** unguessable; the only thing the guest's phone knows */
  token: string;
  type: QrOrderType;
  table_id: string | null;
  label: string | null;
  is_active: number;
  disabled_at: number | null;
  created: number;
  updated: number;
}

declare module '../replication.ts' {
  /** replicated: rows are records, written through db/records.ts and carried by sync */
  interface ReplicatedTables {
    qr_codes: true;
  }
}
