export interface StationsTable {
  id: string;
  restaurant_id: string;
  key: string;
  name: string;
  is_active: number;
  created: number;
  updated: number;
}
