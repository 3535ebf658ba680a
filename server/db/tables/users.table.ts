export interface UsersTable {
  id: string;
  restaurant_id: string;
  /** null: a person who signs in only by PIN (no email, so no password sign-in) */
  email: string | null;
  name: string;
  role: string;
  password_hash: string | null;
  /** a 4–6 digit PIN for quick sign-in on a shared tablet, hashed like a password */
  pin_hash: string | null;
  hourly_rate: number | null;
  is_active: number;
  /** the back office's language for this person; null: the restaurant's */
  language: string | null;
  created: number;
  updated: number;
}

declare module '../replication.ts' {
  /** replicated: rows are records, written through db/records.ts and carried by sync */
  interface ReplicatedTables {
    users: true;
  }
}
