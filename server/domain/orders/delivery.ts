import type { Executor } from '../../db/records.ts';
import { insertRecord, updateRecord } from '../../db/records.ts';
import { newId, PREFIXES } from '../../ids.ts';
import type { Actor } from '../../services.ts';
import { seconds } from '../time.ts';
import type { OrderRow } from '../../db/tables/orders.table.ts';

export const IN_HOUSE = 'in_house';
/**
 * Sandbox orders (`livemode` false) never reach a real fleet: their delivery record moves with
 * the order like the in-house one, with no courier assigned and nothing sent anywhere.
 */
export const SANDBOX = 'sandbox';

/**
 * Keeps the courier side of a delivery order in step with the order, in its transaction.
 * A delivery order gets its record once it leaves draft. With the in-house fleet the
 * order's own moves drive it: ready → a courier is dispatched, served → picked up,
 * completed → delivered. An external fleet reports those itself (see features/orders.ts);
 * here it only learns of cancellations. A sandbox order's delivery is `SANDBOX`'s.
 */
export async function syncDelivery(trx: Executor, actor: Actor, fleet: string | null, order: OrderRow, previous: OrderRow['status'] | null) {
  if (order.type !== 'delivery' || !fleet || order.status === previous || order.status === 'draft') return;
  const now = seconds(actor);
  let row = await trx.selectFrom('deliveries').selectAll().where('order_id', '=', order.id).executeTakeFirst();
  if (!row) {
    if (order.status === 'cancelled' || !order.delivery_address) return;
    row = await insertRecord(trx, 'deliveries', {
      id: newId(PREFIXES.delivery, actor.now),
      restaurant_id: order.restaurant_id,
      order_id: order.id,
      provider: order.livemode === 1 ? fleet : SANDBOX,
      external_id: null,
      status: 'awaiting_dispatch',
      address: order.delivery_address,
      courier_id: null,
      courier_name: null,
      dispatched_at: null,
      picked_up_at: null,
      delivered_at: null,
      created: now,
      updated: now,
    });
  }
  const patch: Record<string, unknown> = {};
  if (order.status === 'cancelled') {
    if (row.status !== 'delivered') patch.status = 'cancelled';
  } else if (row.provider === IN_HOUSE || row.provider === SANDBOX) {
    const stage = ({ ready: 1, served: 2, completed: 3 } as Record<string, number>)[order.status] ?? 0;
    if (stage >= 1 && !row.dispatched_at) {
      const courier = row.provider === IN_HOUSE ? await pickCourier(trx, order.restaurant_id) : null;
      Object.assign(patch, { status: 'dispatched', dispatched_at: now, courier_id: courier?.id ?? null, courier_name: courier?.name ?? null });
    }
    if (stage >= 2 && !row.picked_up_at) Object.assign(patch, { status: 'picked_up', picked_up_at: now });
    if (stage >= 3 && !row.delivered_at) Object.assign(patch, { status: 'delivered', delivered_at: now });
  }
  if (Object.keys(patch).length) await updateRecord(trx, 'deliveries', row, { ...patch, updated: now });
}

/** The active courier with the fewest deliveries on the road; null when the venue lists none. */
async function pickCourier(trx: Executor, restaurantId: string) {
  const couriers = await trx
    .selectFrom('users')
    .select(['id', 'name'])
    .where('restaurant_id', '=', restaurantId)
    .where('role', '=', 'courier')
    .where('is_active', '=', 1)
    .orderBy('id')
    .execute();
  if (couriers.length === 0) return null;
  const busy = await trx
    .selectFrom('deliveries')
    .select(['courier_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('restaurant_id', '=', restaurantId)
    .where('status', 'in', ['dispatched', 'picked_up'])
    .groupBy('courier_id')
    .execute();
  const load = new Map(busy.map((b) => [b.courier_id, Number(b.n)]));
  return couriers.reduce((best, c) => ((load.get(c.id) ?? 0) < (load.get(best.id) ?? 0) ? c : best));
}
