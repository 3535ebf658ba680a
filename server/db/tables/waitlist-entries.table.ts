import type { WaitlistStatus } from '../../model/waitlist.ts';
import type { Selectable } from 'kysely';

export interface WaitlistEntriesTable {
  id: string;
  restaurant_id: string;
  guest_name: string;
  party_size: number;
  /** E.164 when parseable (see normalizePhone); compared to refuse a second join */
  phone: string | null;
  /** lower-cased */
  email: string | null;
  consent: number;
  /** 'online' (joined from the public page) or 'walk_in' (added by staff) */
  source: 'online' | 'walk_in';
  status: WaitlistStatus;
  notes: string | null;
  /** the language notices are written in (domain/guest/lang.ts) */
  lang: string;
  customer_id: string | null;
  livemode: number;
  notified_at: number | null;
  notified_channel: string | null;
  seated_at: number | null;
  cancelled_at: number | null;
  /** 'guest' (left through the token) or 'staff' (removed from the dashboard) */
  cancelled_by: string | null;
  expired_at: number | null;
  /** the table the party was seated at (null: seated without one) */
  table_id: string | null;
  /** the sitting (a seated reservation) that holds that table */
  reservation_id: string | null;
  created: number;
  updated: number;
}

/** A row as read. */
export type WaitlistEntryRow = Selectable<WaitlistEntriesTable>;

declare module '../replication.ts' {
  /** replicated: rows are records, written through db/records.ts and carried by sync */
  interface ReplicatedTables {
    waitlist_entries: true;
  }
}
