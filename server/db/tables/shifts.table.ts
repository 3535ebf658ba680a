export interface ShiftsTable {
  id: string;
  restaurant_id: string;
  /** usr_ id of the staff user */
  user_id: string;
  /** Unix seconds */
  clock_in: number;
  /** Unix seconds; null while the shift is open */
  clock_out: number | null;
  created: number;
  updated: number;
}

declare module '../replication.ts' {
  /** replicated: rows are records, written through db/records.ts and carried by sync */
  interface ReplicatedTables {
    shifts: true;
  }
}
