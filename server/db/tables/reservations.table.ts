import type { Selectable } from 'kysely';
import type { ReservationStatus } from '../../model/reservations.ts';

// sync/derived.ts reads the status type from here
export type { ReservationStatus };

/** Table reservations (`rsv_`). */
export interface ReservationsTable {
  id: string;
  restaurant_id: string;
  guest_name: string;
  /** lower-cased */
  guest_email: string | null;
  /** E.164 when it could be parsed (see normalizePhone) */
  guest_phone: string | null;
  customer_id: string | null;
  party_size: number;
  /** YYYY-MM-DD, wall clock in the restaurant's timezone */
  date: string;
  /** HH:MM, wall clock in the restaurant's timezone */
  time: string;
  /** Unix seconds of date+time in the restaurant's timezone */
  starts_at: number;
  /** starts_at + duration_minutes */
  ends_at: number;
  duration_minutes: number;
  table_id: string | null;
  status: ReservationStatus;
  arrived_at: number | null;
  seated_at: number | null;
  completed_at: number | null;
  cancelled_at: number | null;
  source: string;
  notes: string | null;
  special_requests: string | null;
  /** JSON string[] */
  tags: string;
  no_show_risk: number;
  /** 0 when made with a sandbox key */
  livemode: number;
  created: number;
  updated: number;
}

/** A row as read. */
export type ReservationRow = Selectable<ReservationsTable>;

declare module '../replication.ts' {
  /** replicated: rows are records, written through db/records.ts and carried by sync */
  interface ReplicatedTables {
    reservations: true;
  }
}
