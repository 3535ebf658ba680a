import type { Executor } from '../../db/records.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../../services.ts';
import { getSettings } from '../restaurants/restaurants.ts';
import { seconds } from '../time.ts';
import { computeAvailability, DEFAULT_DURATION_MINUTES, DEFAULT_PARTY_SIZE } from './availability.ts';
import { toMinutes } from './clock-time.ts';
import { activeTables, sittingsAroundDate } from './floor.ts';

export interface AvailabilityQuery {
  date: string;
  party_size?: number;
  from?: string;
  to?: string;
  slot_interval?: number;
}

export async function getAvailability(db: Executor, actor: Actor, query: AvailabilityQuery) {
  const from = query.from === undefined ? undefined : toMinutes(query.from);
  const to = query.to === undefined ? undefined : toMinutes(query.to);
  if (from !== undefined && to !== undefined && from > to) {
    throw new ApiError('parameter_invalid', 'from must not be after to.', 'to');
  }
  const settings = await getSettings(db, actor.restaurantId);
  const [tables, sittings] = await Promise.all([
    activeTables(db, actor.restaurantId),
    sittingsAroundDate(db, actor.restaurantId, query.date, settings.timezone),
  ]);
  return computeAvailability({
    date: query.date,
    partySize: query.party_size ?? DEFAULT_PARTY_SIZE,
    slotInterval: query.slot_interval ?? settings.slot_duration_minutes,
    durationMinutes: DEFAULT_DURATION_MINUTES,
    from,
    to,
    settings,
    tables,
    sittings,
    now: seconds(actor),
  });
}
