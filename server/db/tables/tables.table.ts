/** Dining tables of the venue (the `tbl_` records). */
export interface TablesTable {
  id: string;
  restaurant_id: string;
  number: number;
  capacity: number;
  min_capacity: number | null;
  zone: string | null;
  status: string;
  is_active: number;
  /** where the table is drawn on its zone's plan (plan units, 0–1000); null: not placed yet */
  plan_x: number | null;
  plan_y: number | null;
  plan_width: number | null;
  plan_height: number | null;
  /** 'square', 'round' or 'rect'; null: square */
  shape: string | null;
  created: number;
  updated: number;
}

declare module '../replication.ts' {
  /** replicated: rows are records, written through db/records.ts and carried by sync */
  interface ReplicatedTables {
    tables: true;
  }
}
