/** A sync conflict a person settled: a replicated record, so it settles the conflict on both nodes. */
export interface SyncResolutionsTable {
  id: string;
  restaurant_id: string;
  kind: string;
  /** JSON string[], sorted: the conflict's records, the same on every node */
  row_ids: string;
  note: string | null;
  /** usr_… (a staff session) or key_… (an API key) */
  resolved_by: string;
  created: number;
}

declare module '../replication.ts' {
  /** replicated: rows are records, written through db/records.ts and carried by sync */
  interface ReplicatedTables {
    sync_resolutions: true;
  }
}
