export interface UsersTable {
  id: string;
  restaurant_id: string;
  email: string;
  name: string;
  role: string;
  password_hash: string | null;
  hourly_rate: number | null;
  is_active: number;
  /** the back office's language for this person; null: the restaurant's */
  language: string | null;
  created: number;
  updated: number;
}
