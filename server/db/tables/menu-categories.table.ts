export interface MenuCategoriesTable {
  id: string;
  restaurant_id: string;
  name: string;
  description: string | null;
  parent_category_id: string | null;
  sort_order: number;
  is_active: number;
  station: string;
  image_url: string | null;
  available_from: string | null;
  available_until: string | null;
  /** JSON string[] of weekday names (monday … sunday) */
  available_days: string;
  /** JSON object */
  translations: string;
  created: number;
  updated: number;
}

declare module '../replication.ts' {
  /** replicated: rows are records, written through db/records.ts and carried by sync */
  interface ReplicatedTables {
    menu_categories: true;
  }
}
