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
  created: number;
  updated: number;
}
