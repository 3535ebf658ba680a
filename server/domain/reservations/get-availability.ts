import type { Executor } from '../../db/records.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../../services.ts';
import { getSettings } from '../restaurants/restaurants.ts';
import { seconds } from '../time.ts';
import type { AvailabilityCache } from './availability-cache.ts';
import { availabilityFrame, DEFAULT_DURATION_MINUTES, DEFAULT_PARTY_SIZE, presentAvailability, type AvailabilityFrame } from './availability.ts';
import { toMinutes } from './clock-time.ts';
import { modeOf } from '../modes.ts';
import { activeTables, sittingsAroundDate, type FloorScope } from './floor.ts';

/** what a frame is made of: settings and hours, the tables, the bookings */
const FLOOR_TABLES = ['restaurants', 'tables', 'reservations'] as const;

export interface AvailabilityQuery {
  date: string;
  party_size?: number;
  from?: string;
  to?: string;
  slot_interval?: number;
}

/** The frame as one mode sees it: every active table, but only that mode's bookings on them. */
async function computeFrame(db: Executor, scope: FloorScope, query: AvailabilityQuery, from?: number, to?: number): Promise<AvailabilityFrame> {
  const settings = await getSettings(db, scope.restaurantId);
  const [tables, sittings] = await Promise.all([activeTables(db, scope.restaurantId), sittingsAroundDate(db, scope, query.date, settings.timezone)]);
  return availabilityFrame({
    date: query.date,
    partySize: query.party_size ?? DEFAULT_PARTY_SIZE,
    slotInterval: query.slot_interval ?? settings.slot_duration_minutes,
    durationMinutes: DEFAULT_DURATION_MINUTES,
    from,
    to,
    settings,
    tables,
    sittings,
  });
}

export async function getAvailability(db: Executor, actor: Actor, query: AvailabilityQuery, cache?: AvailabilityCache) {
  const from = query.from === undefined ? undefined : toMinutes(query.from);
  const to = query.to === undefined ? undefined : toMinutes(query.to);
  if (from !== undefined && to !== undefined && from > to) {
    throw new ApiError('parameter_invalid', 'from must not be after to.', 'to');
  }
  if (!cache) return presentAvailability(await computeFrame(db, actor, query, from, to), seconds(actor));
  // The mode is part of the key: live and sandbox frames of one query differ (each counts
  // only its own bookings). The version stays per restaurant, so a write in either mode
  // merely recomputes the other's frame.
  const key = [actor.restaurantId, modeOf(actor), query.date, query.party_size ?? '', from ?? '', to ?? '', query.slot_interval ?? ''].join('|');
  const frame = await cache.through(db, actor.restaurantId, key, () => computeFrame(db, actor, query, from, to), FLOOR_TABLES);
  return presentAvailability(frame, seconds(actor));
}
