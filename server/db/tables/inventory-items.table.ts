export interface InventoryItemsTable {
  id: string;
  restaurant_id: string;
  name: string;
  sku: string | null;
  unit: string;
  /** thousandths of the unit (2.5 kg = 2500), so totals are exact */
  quantity_milli: number;
  /** cents per whole unit */
  unit_cost: number;
  reorder_level_milli: number;
  created: number;
  updated: number;
}

declare module '../replication.ts' {
  /** replicated: rows are records, written through db/records.ts and carried by sync */
  interface ReplicatedTables {
    inventory_items: true;
  }
}
