import type { SyncResolutionsTable } from '../tables/sync-resolutions.table.ts';

/** Tables of sync (sync/): local to their node, but for the settlements of conflicts (replicated). */
export interface SyncTables {
  sync_link: SyncLinkTable;
  sync_hubs: SyncHubsTable;
  sync_invites: SyncInvitesTable;
  sync_conflicts: SyncConflictsTable;
  sync_row_clocks: SyncRowClocksTable;
  sync_resolutions: SyncResolutionsTable;
}

/** Hub side: its one link to the cloud (id is always 1). */
export interface SyncLinkTable {
  id: number;
  restaurant_id: string;
  cloud_url: string;
  hub_id: string;
  /** the hub's secret for the cloud; never logged, never in a URL */
  credential: string;
  pull_cursor: number;
  push_cursor: number;
  /** 1 while a full re-sync runs (after a restore or a diverged history) */
  resync: number;
  connected: number;
  last_synced_at: number | null;
  last_error: string | null;
  cloud_head: number | null;
  pending_pull: number;
  cloud_epoch: string | null;
  /** set while the cloud refuses this hub (a 4xx): sync waits for an operator, retrying slowly */
  refused: string | null;
  /** cloud clock minus this node's clock, learned at every exchange */
  clock_offset_ms: number;
  /** the op id of the cloud's entry at pull_cursor: the checkpoint the cloud verifies at hello */
  pull_op_id: string | null;
  /** the last audit-and-repair (sync/repair.ts): unknown, in_sync, repairing, diverged */
  repair_state: string;
  repair_checked_at: number | null;
  repaired_rows: number;
  /** JSON {table, id}[]: rows a repair could not make the same */
  repair_unconverged: string | null;
  created: number;
}

/** Cloud side: one per linked hub. */
export interface SyncHubsTable {
  id: string;
  restaurant_id: string;
  credential_hash: string;
  epoch: string | null;
  cursor: number;
  cursor_op_id: string | null;
  pulled_through: number;
  hub_pending: number;
  resync: number;
  last_seen_at: number | null;
  last_error: string | null;
  revoked_at: number | null;
  /** the last audit-and-repair (sync/repair.ts): unknown, in_sync, repairing, diverged */
  repair_state: string;
  repair_checked_at: number | null;
  repaired_rows: number;
  /** JSON {table, id}[]: rows a repair could not make the same */
  repair_unconverged: string | null;
  created: number;
}

export interface SyncInvitesTable {
  code_hash: string;
  restaurant_id: string | null;
  expires: number;
  used_at: number | null;
  created: number;
}

export interface SyncConflictsTable {
  id: string;
  restaurant_id: string;
  kind: string;
  table_name: string;
  /** JSON string[], sorted */
  row_ids: string;
  /** JSON */
  detail: string;
  resolved_at: number | null;
  created: number;
}

export interface SyncRowClocksTable {
  table_name: string;
  row_id: string;
  /** JSON {column: hlc} */
  clocks: string;
}

declare module '../replication.ts' {
  /** local: this node's bookkeeping, outside the change log */
  interface LocalTables {
    sync_link: true;
    sync_hubs: true;
    sync_invites: true;
    sync_conflicts: true;
    sync_row_clocks: true;
  }
}
