/** Outbox of domain events, written in the transaction of the change that caused them. */
export interface EventsTable {
  id: string;
  restaurant_id: string;
  type: string;
  livemode: number;
  /** JSON: { object: <the full resource at the time of the event>, ... } */
  data: string;
  status: string;
  created: number;
  updated: number;
}

declare module '../replication.ts' {
  /** replicated: rows are records, written through db/records.ts and carried by sync */
  interface ReplicatedTables {
    events: true;
  }
}
