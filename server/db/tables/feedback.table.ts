export interface FeedbackTable {
  id: string;
  restaurant_id: string;
  /** 1–5 */
  rating: number;
  comment: string | null;
  order_id: string | null;
  /** 'guest' for the public form */
  source: string;
  created: number;
  updated: number;
}

declare module '../replication.ts' {
  /** replicated: rows are records, written through db/records.ts and carried by sync */
  interface ReplicatedTables {
    feedback: true;
  }
}
