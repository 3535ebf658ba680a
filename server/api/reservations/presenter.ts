import type { Selectable } from 'kysely';
import type { ReservationsTable } from '../../db/tables/reservations.table.ts';

export type ReservationRow = Selectable<ReservationsTable>;

/** The full reservation resource; the one shape used by the API and by events. */
export function presentReservation(row: ReservationRow) {
  return {
    id: row.id,
    object: 'reservation' as const,
    created: row.created,
    updated: row.updated,
    guest: { name: row.guest_name, email: row.guest_email, phone: row.guest_phone },
    customer: row.customer_id,
    party_size: row.party_size,
    date: row.date,
    time: row.time,
    duration_minutes: row.duration_minutes,
    starts_at: row.starts_at,
    ends_at: row.ends_at,
    table: row.table_id as string | object | null,
    status: row.status,
    arrived_at: row.arrived_at,
    seated_at: row.seated_at,
    completed_at: row.completed_at,
    cancelled_at: row.cancelled_at,
    source: row.source,
    notes: row.notes,
    special_requests: row.special_requests,
    tags: JSON.parse(row.tags) as string[],
    no_show_risk: row.no_show_risk,
    livemode: row.livemode === 1,
  };
}
