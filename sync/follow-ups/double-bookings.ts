import { ACTIVE_RESERVATION_STATUSES } from '../../server/model/reservations.ts';
import type { RemoteBatchHook } from '../apply-context.ts';
import { recordConflict } from '../record-conflict.ts';

/** The same table booked for overlapping times on both sides while apart: both are kept, and listed. */
export const doubleBookingsAfterBatch: RemoteBatchHook = {
  name: 'reservations-double-bookings',
  async afterBatch(trx, ctx, { reservations: ids }) {
    if (ids.size === 0) return;
    const mine = await trx.selectFrom('reservations').selectAll().where('id', 'in', [...ids]).execute();
    for (const r of mine) {
      if (!r.table_id || !ACTIVE_RESERVATION_STATUSES.includes(r.status)) continue;
      const others = await trx
        .selectFrom('reservations')
        .select('id')
        .where('restaurant_id', '=', ctx.restaurantId)
        .where('table_id', '=', r.table_id)
        .where('livemode', '=', r.livemode)
        .where('id', '!=', r.id)
        .where('status', 'in', ACTIVE_RESERVATION_STATUSES)
        .where('starts_at', '<', r.ends_at)
        .where('ends_at', '>', r.starts_at)
        .execute();
      for (const o of others) {
        await recordConflict(trx, ctx, 'double_booking', 'reservations', [r.id, o.id], { table_id: r.table_id, starts_at: r.starts_at });
      }
    }
  },
};
