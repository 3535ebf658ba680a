import { type Kysely, sql } from 'kysely';
import type { Executor } from '../../db/records.ts';
import { updateRecord } from '../../db/records.ts';
import type { DB } from '../../db/schema.ts';
import { factOf, type OrderFact, zoneOf } from './rollup.ts';
import { loyaltyPoints } from '../../model/sales-rules.ts';
import type { OrderItemRow } from '../../db/tables/order-items.table.ts';

const CHUNK = 2000;
const INSERT_BATCH = 250;

async function insertMany(db: Kysely<DB>, table: 'analytics_order_facts' | 'analytics_daily' | 'analytics_item_daily' | 'analytics_customer_totals', rows: any[]) {
  for (let i = 0; i < rows.length; i += INSERT_BATCH) await db.insertInto(table).values(rows.slice(i, i + INSERT_BATCH)).execute();
}

/**
 * Recomputes one restaurant's roll-ups from its orders in bulk, with the same factOf the
 * order hook uses: after a time-zone change, after orders arrived by sync, or after a bulk
 * load (demo history, the benchmark data set) that wrote orders without the hook.
 */
export async function rebuildRollups(trx: Executor, restaurantId: string): Promise<{ orders: number; sales: number }> {
  const db = trx as Kysely<DB>;
  for (const t of ['analytics_order_facts', 'analytics_daily', 'analytics_item_daily', 'analytics_customer_totals'] as const) {
    await db.deleteFrom(t).where('restaurant_id', '=', restaurantId).execute();
  }
  const zone = await zoneOf(trx, restaurantId);
  const daily = new Map<string, { restaurant_id: string; day: string; hour: number; type: string; weekday: number; orders: number; revenue: number }>();
  const itemDaily = new Map<string, { restaurant_id: string; day: string; menu_item_id: string; quantity: number; revenue: number; orders: number }>();
  const customers = new Map<string, { customer_id: string; restaurant_id: string; visits: number; total_spent: number }>();
  // keyset over the (restaurant_id, created, id) index: each chunk is one index range
  let after: [number, string] = [-1, ''];
  let orders = 0;
  let sales = 0;
  for (;;) {
    const chunk = await db
      .selectFrom('orders')
      .selectAll()
      .where('restaurant_id', '=', restaurantId)
      .where(sql<boolean>`(created, id) > (${after[0]}, ${after[1]})`)
      .orderBy('created')
      .orderBy('id')
      .limit(CHUNK)
      .execute();
    if (chunk.length === 0) break;
    const last = chunk[chunk.length - 1];
    after = [Number(last.created), last.id];
    orders += chunk.length;
    const lines = await db
      .selectFrom('order_items')
      .selectAll()
      .where('order_id', 'in', chunk.map((o) => o.id))
      .execute();
    const byOrder = new Map<string, OrderItemRow[]>();
    for (const l of lines) byOrder.set(l.order_id, [...(byOrder.get(l.order_id) ?? []), l]);
    const facts: OrderFact[] = [];
    for (const o of chunk) {
      const f = factOf(o, (byOrder.get(o.id) ?? []).sort((a, b) => a.idx - b.idx), zone);
      if (f) facts.push(f);
    }
    sales += facts.length;
    for (const f of facts) {
      const dk = `${f.day}|${f.hour}|${f.type}`;
      const d = daily.get(dk) ?? { restaurant_id: restaurantId, day: f.day, hour: f.hour, type: f.type, weekday: f.weekday, orders: 0, revenue: 0 };
      d.orders += 1;
      d.revenue += f.revenue;
      daily.set(dk, d);
      for (const [id, qty, rev] of f.items) {
        const ik = `${f.day}|${id}`;
        const it = itemDaily.get(ik) ?? { restaurant_id: restaurantId, day: f.day, menu_item_id: id, quantity: 0, revenue: 0, orders: 0 };
        it.quantity += qty;
        it.revenue += rev;
        it.orders += 1;
        itemDaily.set(ik, it);
      }
      if (f.customer_id) {
        const c = customers.get(f.customer_id) ?? { customer_id: f.customer_id, restaurant_id: restaurantId, visits: 0, total_spent: 0 };
        c.visits += 1;
        c.total_spent += f.revenue;
        customers.set(f.customer_id, c);
      }
    }
    await insertMany(db, 'analytics_order_facts', facts.map((f) => ({ ...f, items: JSON.stringify(f.items) })));
  }
  await insertMany(db, 'analytics_daily', [...daily.values()]);
  await insertMany(db, 'analytics_item_daily', [...itemDaily.values()]);
  await insertMany(db, 'analytics_customer_totals', [...customers.values()]);
  // The customer records carry their points; only those that changed are written.
  const stored = await db.selectFrom('customers').select(['id', 'loyalty_points']).where('restaurant_id', '=', restaurantId).execute();
  for (const c of stored) {
    const points = loyaltyPoints(customers.get(c.id)?.total_spent ?? 0);
    if (points !== c.loyalty_points) await updateRecord(trx, 'customers', { id: c.id, restaurant_id: restaurantId }, { loyalty_points: points });
  }
  return { orders, sales };
}
