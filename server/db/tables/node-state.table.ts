/** One row: this node's identity and the counter that orders every change applied here. */
export interface NodeStateTable {
  id: number;
  origin: string;
  seq: number;
  /** the last hybrid logical clock handed out here */
  hlc: string | null;
  /** change-log positions up to here may have been compacted (sync/compact.ts) */
  compacted_through: number;
}

declare module '../replication.ts' {
  /** local: this node's bookkeeping, outside the change log */
  interface LocalTables {
    node_state: true;
  }
}
