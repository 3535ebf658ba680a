import type { Executor } from '../../db/records.ts';
import { modeOf } from '../modes.ts';
import type { FloorScope } from './floor.ts';

/** A cancellation less than this long before the reserved time counts as late. */
export const LATE_CANCELLATION_SECONDS = 24 * 3600;

/**
 * The guest's record at this restaurant: earlier reservations of the same mode matched by
 * customer, email or phone (any one is enough), leaving out the reservation being scored.
 * Sandbox no-shows made with a real guest's email must not raise that guest's live score.
 */
export async function guestHistory(
  db: Executor,
  scope: FloorScope,
  guest: { customerId: string | null; email: string | null; phone: string | null },
  exceptId?: string,
): Promise<{ noShows: number; lateCancellations: number; visits: number }> {
  const none = { noShows: 0, lateCancellations: 0, visits: 0 };
  if (!guest.customerId && !guest.email && !guest.phone) return none;
  let q = db
    .selectFrom('reservations')
    .select(['status', 'starts_at', 'cancelled_at'])
    .where('restaurant_id', '=', scope.restaurantId)
    .where('livemode', '=', modeOf(scope))
    .where('status', 'in', ['no_show', 'cancelled', 'completed'])
    .where((eb) =>
      eb.or([
        ...(guest.customerId ? [eb('customer_id', '=', guest.customerId)] : []),
        ...(guest.email ? [eb('guest_email', '=', guest.email)] : []),
        ...(guest.phone ? [eb('guest_phone', '=', guest.phone)] : []),
      ]),
    );
  if (exceptId) q = q.where('id', '!=', exceptId);
  const out = { ...none };
  for (const r of await q.execute()) {
    if (r.status === 'no_show') out.noShows++;
    else if (r.status === 'completed') out.visits++;
    else if (r.cancelled_at !== null && r.cancelled_at > r.starts_at - LATE_CANCELLATION_SECONDS) out.lateCancellations++;
  }
  return out;
}
