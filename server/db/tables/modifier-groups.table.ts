export interface ModifierGroupsTable {
  id: string;
  restaurant_id: string;
  name: string;
  required: number;
  min_selections: number;
  max_selections: number;
  /** JSON array of { name, price_adjustment, is_default, is_available, sort_order } */
  modifiers: string;
  created: number;
  updated: number;
}

declare module '../replication.ts' {
  /** replicated: rows are records, written through db/records.ts and carried by sync */
  interface ReplicatedTables {
    modifier_groups: true;
  }
}
