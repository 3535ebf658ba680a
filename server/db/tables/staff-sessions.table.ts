/** A signed-in staff member on one device. Local to the node that issued it, not replicated. */
export interface StaffSessionsTable {
  id: string;
  restaurant_id: string;
  user_id: string;
  token_hash: string;
  csrf_token: string;
  ip: string | null;
  user_agent: string | null;
  created: number;
  last_seen_at: number;
  expires_at: number;
  max_expires_at: number;
  revoked_at: number | null;
}
