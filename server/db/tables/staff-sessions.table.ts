import type { Generated } from 'kysely';

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
  /** how it was opened: 'password', or 'pin' (service work only, auth/roles.ts scopesOfSession) */
  via: Generated<'password' | 'pin'>;
  /** the service tablet a PIN session was opened on: revoking the tablet ends it */
  service_tablet_id: string | null;
}

declare module '../replication.ts' {
  /** local: this node's bookkeeping, outside the change log */
  interface LocalTables {
    staff_sessions: true;
  }
}
