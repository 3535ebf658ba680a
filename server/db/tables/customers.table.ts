export interface CustomersTable {
  id: string;
  restaurant_id: string;
  name: string | null;
  email: string | null;
  /** E.164 when it could be parsed, else the digits; used to match a guest across channels */
  phone: string | null;
  loyalty_points: number;
  first_seen: number;
  created: number;
  updated: number;
}

declare module '../replication.ts' {
  /** replicated: rows are records, written through db/records.ts and carried by sync */
  interface ReplicatedTables {
    customers: true;
  }
}
