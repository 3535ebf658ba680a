export interface UsersTable {
  id: string;
  restaurant_id: string;
  email: string;
  name: string;
  role: string;
  password_hash: string | null;
  hourly_rate: number | null;
  is_active: number;
  created: number;
  updated: number;
}
