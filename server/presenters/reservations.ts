import { z } from 'zod';
import { RESERVATION_STATUSES } from '../model/reservations.ts';
import { named, ref, unix } from '../model/schemas.ts';
import { TableSchema } from './tables.ts';
import type { ReservationRow } from '../db/tables/reservations.table.ts';

export const ReservationSchema = named(
  'Reservation',
  z.object({
    id: z.string(),
    object: z.literal('reservation'),
    created: unix(),
    updated: unix(),
    guest: z.object({ name: z.string(), email: z.string().nullable(), phone: z.string().nullable() }),
    customer: z.string().nullable(),
    party_size: z.number().int(),
    date: z.string().describe('YYYY-MM-DD, the restaurant\'s wall clock'),
    time: z.string().describe('HH:MM'),
    duration_minutes: z.number().int(),
    starts_at: unix(),
    ends_at: unix(),
    table: ref(TableSchema).nullable(),
    status: z.enum(RESERVATION_STATUSES),
    arrived_at: unix().nullable(),
    seated_at: unix().nullable(),
    completed_at: unix().nullable(),
    cancelled_at: unix().nullable(),
    source: z.string(),
    notes: z.string().nullable(),
    special_requests: z.string().nullable(),
    tags: z.array(z.string()),
    no_show_risk: z.number().int(),
    livemode: z.boolean(),
  }),
);
export type Reservation = z.output<typeof ReservationSchema>;

/** The full reservation resource; the one shape used by the API and by events. */
export function presentReservation(row: ReservationRow): Reservation {
  return {
    id: row.id,
    object: 'reservation',
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
    table: row.table_id,
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
