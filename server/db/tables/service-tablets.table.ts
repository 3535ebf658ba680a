import type { Selectable } from 'kysely';

/** A tablet a manager trusted for staff PIN sign-in (its cookie's token hashed). Local, not replicated. */
export interface ServiceTabletsTable {
  id: string;
  restaurant_id: string;
  token_hash: string;
  name: string;
  /** the manager or owner whose session trusted it */
  trusted_by: string;
  ip: string | null;
  user_agent: string | null;
  created: number;
  last_used_at: number | null;
  expires_at: number;
  revoked_at: number | null;
}
export type ServiceTabletRow = Selectable<ServiceTabletsTable>;

declare module '../replication.ts' {
  /** local: this node's bookkeeping, outside the change log */
  interface LocalTables {
    service_tablets: true;
  }
}
