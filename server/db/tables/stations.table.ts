import type { Generated } from 'kysely';

export interface StationsTable {
  id: string;
  restaurant_id: string;
  key: string;
  name: string;
  is_active: number;
  /** a ticket this many minutes old turns amber (null: 8) */
  warn_after_minutes: number | null;
  /** … and red (null: 15) */
  late_after_minutes: number | null;
  /** the kitchen's order of its stations (screens, tickets); ties: oldest first */
  position: Generated<number>;
  created: number;
  updated: number;
}

declare module '../replication.ts' {
  /** replicated: rows are records, written through db/records.ts and carried by sync */
  interface ReplicatedTables {
    stations: true;
  }
}
