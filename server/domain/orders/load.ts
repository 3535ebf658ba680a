import type { Executor } from '../../db/records.ts';
import type { OrderItemRow, OrderRow } from './hooks.ts';

/** An order and its lines, of one restaurant; undefined when it is not that restaurant's. */
export async function loadOrder(db: Executor, restaurantId: string, id: string): Promise<{ order: OrderRow; items: OrderItemRow[] } | undefined> {
  const order = await db.selectFrom('orders').selectAll().where('restaurant_id', '=', restaurantId).where('id', '=', id).executeTakeFirst();
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
