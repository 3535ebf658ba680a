import { ApiError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { setReservationStatus } from './status.ts';
import { RESERVATION_STATUSES, RESERVATION_TRANSITIONS } from '../../model/reservations.ts';

/** Statuses a booking may be marked no_show from (pending, confirmed). */
const CAN_BE_NO_SHOW = RESERVATION_STATUSES.filter((s) => RESERVATION_TRANSITIONS[s].includes('no_show'));

/** A pending or confirmed reservation this long past its time, with no arrival recorded, is a no-show. */
export const NO_SHOW_AFTER_SECONDS = 60 * 60;
const BATCH = 500;

/**
 * The scheduled sweep: marks due reservations no_show, one transaction and one
 * `reservation.no_show` event each. A reservation staff moved meanwhile (arrived,
 * cancelled) is refused by the state table and simply skipped.
 */
export async function markNoShows(services: Services): Promise<number> {
  const now = services.clock.now();
  const due = await services.db
    .selectFrom('reservations')
    .select(['id', 'restaurant_id', 'livemode'])
    .where('status', 'in', CAN_BE_NO_SHOW)
    .where('starts_at', '<=', Math.floor(now / 1000) - NO_SHOW_AFTER_SECONDS)
    .orderBy('starts_at')
    .limit(BATCH)
    .execute();
  let marked = 0;
  for (const r of due) {
    try {
      await services.tx.run((trx) => setReservationStatus(trx, { restaurantId: r.restaurant_id, livemode: r.livemode === 1, now }, r.id, 'no_show'));
      marked++;
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
    }
  }
  return marked;
}
