import type { Executor } from '../../db/records.ts';
import type { Actor } from '../../services.ts';
import { modeOf } from '../modes.ts';
import { dayStartUnix } from './clock-time.ts';
import { VOID_STATES, type Sitting, type TableFit } from './table-fit.ts';

/**
 * Whose bookings a request works with: one restaurant's, of the key's mode. Tables are
 * physical and shared by both modes, but bookings are not: a sandbox test booking must not
 * hold a table against live guests (nor a live one against an integrator's tests).
 */
export type FloorScope = Pick<Actor, 'restaurantId' | 'livemode'>;

export async function activeTables(db: Executor, restaurantId: string): Promise<TableFit[]> {
  return db
    .selectFrom('tables')
    .select(['id', 'number', 'capacity', 'min_capacity'])
    .where('restaurant_id', '=', restaurantId)
    .where('is_active', '=', 1)
    .execute();
}

/** Sittings of the scope's mode that overlap [from, to) (Unix seconds), except `exceptId` (the one being moved). */
export async function sittingsBetween(db: Executor, scope: FloorScope, from: number, to: number, exceptId?: string): Promise<Sitting[]> {
  let q = db
    .selectFrom('reservations')
    .select(['table_id', 'starts_at', 'ends_at', 'status'])
    .where('restaurant_id', '=', scope.restaurantId)
    .where('livemode', '=', modeOf(scope))
    .where('status', 'not in', [...VOID_STATES])
    .where('starts_at', '<', to)
    .where('ends_at', '>', from);
  if (exceptId) q = q.where('id', '!=', exceptId);
  const rows = await q.execute();
  return rows.map((r) => ({ table_id: r.table_id, starts_at: r.starts_at, ends_at: r.ends_at, released: r.status === 'completed' }));
}

/** Everything that can touch one date's slots: from a day before to two days after its midnight. */
export function sittingsAroundDate(db: Executor, scope: FloorScope, date: string, zone: string): Promise<Sitting[]> {
  const start = dayStartUnix(date, zone);
  return sittingsBetween(db, scope, start - 86_400, start + 2 * 86_400);
}
