import { refId, type Reservation, type Table } from './types.ts';

/** Bookings that never hold a table; a completed sitting has left it. */
const RELEASED = ['cancelled', 'no_show', 'completed'];

/** The usual sitting, as the server assumes for a booking without a duration and for a seated waitlist party. */
export const SITTING_MINUTES = 90;

const fits = (t: Table, party: number) => t.is_active && t.capacity >= party && (t.min_capacity ?? 1) <= party;

/**
 * Tables that fit the party and that no booking holds for [start, end) plus the buffer on either
 * side: the same rule the server applies (domain/reservations/table-fit.ts), so a picker offers
 * what a save accepts. `busy` names tables taken anyway (a seated party, an open check);
 * `exceptId` is the booking being edited. Smallest first.
 */
export function freeTables(
  tables: Table[],
  bookings: Reservation[],
  opts: { party: number; start: number; end: number; bufferSec: number; busy?: Set<string>; exceptId?: string },
): Table[] {
  const held = new Set(
    bookings
      .filter((r) => refId(r.table) !== null && r.id !== opts.exceptId && !RELEASED.includes(r.status))
      .filter((r) => opts.start < r.ends_at + opts.bufferSec && r.starts_at < opts.end + opts.bufferSec)
      .map((r) => refId(r.table) as string),
  );
  return tables
    .filter((t) => fits(t, opts.party) && !held.has(t.id) && !opts.busy?.has(t.id))
    .sort((a, b) => a.capacity - b.capacity || a.number - b.number);
}
