import type { Executor } from '../../db/records.ts';
import { locksRows } from '../../db/row-locks.ts';
import type { OrderItemRow } from '../../db/tables/order-items.table.ts';
import type { OrderRow } from '../../db/tables/orders.table.ts';

/**
 * An order and its lines, of one restaurant; undefined when it is not that restaurant's.
 * `forUpdate`: the caller will write the order back (a status move, a new round), so on
 * PostgreSQL its row stays locked until the transaction ends: a concurrent move waits and
 * then reads what this one wrote (a cancel and a line move, or two stations finishing at
 * once, can no longer erase each other).
 */
export async function loadOrder(
  db: Executor,
  restaurantId: string,
  id: string,
  opts: { forUpdate?: boolean } = {},
): Promise<{ order: OrderRow; items: OrderItemRow[] } | undefined> {
  let q = db.selectFrom('orders').selectAll().where('restaurant_id', '=', restaurantId).where('id', '=', id);
  if (opts.forUpdate && locksRows(db)) q = q.forUpdate();
  const order = await q.executeTakeFirst();
  if (!order) return undefined;
  const items = await db.selectFrom('order_items').selectAll().where('order_id', '=', id).orderBy('idx').execute();
  return { order, items };
}

/** Lines of many orders in one query, grouped by order id. */
export async function loadItemsFor(db: Executor, orderIds: string[]): Promise<Map<string, OrderItemRow[]>> {
  const map = new Map<string, OrderItemRow[]>(orderIds.map((id) => [id, []]));
  if (orderIds.length === 0) return map;
  const rows = await db.selectFrom('order_items').selectAll().where('order_id', 'in', orderIds).orderBy('order_id').orderBy('idx').execute();
  for (const r of rows) map.get(r.order_id)!.push(r);
  return map;
}
