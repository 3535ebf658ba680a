import type { Generated } from 'kysely';

export interface MenuItemsTable {
  id: string;
  restaurant_id: string;
  category_id: string;
  name: string;
  description: string | null;
  price: number;
  cost: number | null;
  sku: string | null;
  image_url: string | null;
  is_active: number;
  is_available: number;
  preparation_time_minutes: number | null;
  /** JSON object or null */
  nutrition: string | null;
  /** JSON string[] */
  allergens: string;
  /** JSON string[] */
  tags: string;
  /** JSON string[] of mg_ ids, in display order */
  modifier_group_ids: string;
  sort_order: number;
  /** the station its lines go to; null: its category's */
  station: Generated<string | null>;
  tax_rate: number | null;
  /** JSON object */
  translations: string;
  created: number;
  updated: number;
}

declare module '../replication.ts' {
  /** replicated: rows are records, written through db/records.ts and carried by sync */
  interface ReplicatedTables {
    menu_items: true;
  }
}
