import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { Executor } from '../../db/records.ts';
import { updateRecord } from '../../db/records.ts';
import { onOrderBatchEnd, onOrderChange, sharedRead } from '../orders/hooks.ts';
import { localSlot, saleTime } from './calendar.ts';
import type { AnalyticsOrderFactsTable } from '../../db/tables/analytics-order-facts.table.ts';
import { countsAsSale, countsAsSold, lineRevenue, loyaltyPoints } from '../../model/sales-rules.ts';
import type { OrderItemRow } from '../../db/tables/order-items.table.ts';
import type { OrderRow } from '../../db/tables/orders.table.ts';

/** What one counted order adds to the roll-ups: its stored fact, with the items parsed. */
export type OrderFact = Omit<AnalyticsOrderFactsTable, 'items'> & {
  /** [menu_item_id, quantity, revenue] per menu item, net of voids and comps (rules.ts lineRevenue) */
  items: [string, number, number][];
};

/** The roll-up contribution of an order in its current state; null when it is not a sale. */
export function factOf(order: OrderRow, items: OrderItemRow[], zone: string): OrderFact | null {
  if (!countsAsSale(order)) return null;
  const slot = localSlot(saleTime(order), zone);
  const byItem = new Map<string, [string, number, number]>();
  for (const line of items) {
    if (!countsAsSold(line)) continue;
    const e = byItem.get(line.menu_item_id) ?? [line.menu_item_id, 0, 0];
    e[1] += line.quantity;
    e[2] += lineRevenue(line);
    byItem.set(line.menu_item_id, e);
  }
  return {
    order_id: order.id,
    restaurant_id: order.restaurant_id,
    ...slot,
    type: order.type,
    revenue: order.total,
    customer_id: order.customer_id,
    items: [...byItem.values()].sort((a, b) => (a[0] < b[0] ? -1 : 1)),
  };
}

const sameFact = (a: OrderFact | null, b: OrderFact | null) => JSON.stringify(a) === JSON.stringify(b);

function readFact(row: DB['analytics_order_facts'] | undefined): OrderFact | null {
  if (!row) return null;
  return { ...row, revenue: Number(row.revenue), items: JSON.parse(row.items) };
}

type DailyRow = { restaurant_id: string; day: string; hour: number; type: OrderFact['type']; weekday: number; orders: number; revenue: number };
type ItemDailyRow = { restaurant_id: string; day: string; menu_item_id: string; quantity: number; revenue: number; orders: number };
type StoredFact = Omit<OrderFact, 'items'> & { items: string };

/** Adds rows' orders and revenue to the hourly roll-up (one order's, or a batch's summed). */
async function addDaily(db: Kysely<DB>, rows: DailyRow[]): Promise<void> {
  await db
    .insertInto('analytics_daily')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['restaurant_id', 'day', 'hour', 'type']).doUpdateSet((eb) => ({
        orders: eb('analytics_daily.orders', '+', eb.ref('excluded.orders')),
        revenue: eb('analytics_daily.revenue', '+', eb.ref('excluded.revenue')),
      })),
    )
    .execute();
}

/** Adds rows' quantities, revenue and orders to the per-item daily roll-up. */
async function addItemDaily(db: Kysely<DB>, rows: ItemDailyRow[]): Promise<void> {
  await db
    .insertInto('analytics_item_daily')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['restaurant_id', 'day', 'menu_item_id']).doUpdateSet((eb) => ({
        quantity: eb('analytics_item_daily.quantity', '+', eb.ref('excluded.quantity')),
        revenue: eb('analytics_item_daily.revenue', '+', eb.ref('excluded.revenue')),
        orders: eb('analytics_item_daily.orders', '+', eb.ref('excluded.orders')),
      })),
    )
    .execute();
}

/** Stores what orders count for now (replacing what they counted for before). */
async function putFacts(db: Kysely<DB>, facts: OrderFact[]): Promise<void> {
  const rows: StoredFact[] = facts.map((f) => ({ ...f, items: JSON.stringify(f.items) }));
  await db
    .insertInto('analytics_order_facts')
    .values(rows)
    .onConflict((oc) =>
      oc.column('order_id').doUpdateSet((eb) => ({
        restaurant_id: eb.ref('excluded.restaurant_id'),
        day: eb.ref('excluded.day'),
        hour: eb.ref('excluded.hour'),
        weekday: eb.ref('excluded.weekday'),
        type: eb.ref('excluded.type'),
        revenue: eb.ref('excluded.revenue'),
        customer_id: eb.ref('excluded.customer_id'),
        items: eb.ref('excluded.items'),
      })),
    )
    .execute();
}

/** Adds (sign 1) or takes back (sign -1) one order's contribution. */
async function applyFact(trx: Executor, f: OrderFact, sign: 1 | -1): Promise<void> {
  const db = trx as Kysely<DB>;
  await addDaily(db, [{ restaurant_id: f.restaurant_id, day: f.day, hour: f.hour, type: f.type, weekday: f.weekday, orders: sign, revenue: sign * f.revenue }]);
  if (f.items.length) {
    await addItemDaily(
      db,
      f.items.map(([id, qty, rev]) => ({ restaurant_id: f.restaurant_id, day: f.day, menu_item_id: id, quantity: sign * qty, revenue: sign * rev, orders: sign })),
    );
  }
  if (f.customer_id) {
    const totals = await db
      .insertInto('analytics_customer_totals')
      .values({ customer_id: f.customer_id, restaurant_id: f.restaurant_id, visits: sign, total_spent: sign * f.revenue })
      .onConflict((oc) =>
        oc.column('customer_id').doUpdateSet((eb) => ({
          visits: eb('analytics_customer_totals.visits', '+', eb.ref('excluded.visits')),
          total_spent: eb('analytics_customer_totals.total_spent', '+', eb.ref('excluded.total_spent')),
        })),
      )
      .returning(['total_spent'])
      .executeTakeFirstOrThrow();
    // The customer record carries its points so sync and the customers API see them.
    const points = loyaltyPoints(Number(totals.total_spent));
    const customer = await db
      .selectFrom('customers')
      .select(['loyalty_points', 'updated'])
      .where('id', '=', f.customer_id)
      .where('restaurant_id', '=', f.restaurant_id)
      .executeTakeFirst();
    if (customer && customer.loyalty_points !== points) {
      await updateRecord(trx, 'customers', { id: f.customer_id, restaurant_id: f.restaurant_id }, { loyalty_points: points });
    }
  }
}

export async function zoneOf(trx: Executor, restaurantId: string): Promise<string> {
  const r = await trx.selectFrom('restaurants').select('timezone').where('id', '=', restaurantId).executeTakeFirstOrThrow();
  return r.timezone;
}

/**
 * Brings the roll-ups in line with an order's current state: takes back what the order
 * contributed before (kept in analytics_order_facts) and adds what it contributes now.
 * Runs in the order command's transaction, so reports never see half a change.
 */
export async function syncOrderRollups(trx: Executor, order: OrderRow, items: OrderItemRow[], zone?: string, isNew = false): Promise<void> {
  const db = trx as Kysely<DB>;
  // An order created just now has counted nowhere yet; a draft counts nowhere at all.
  const before = isNew ? null : readFact(await db.selectFrom('analytics_order_facts').selectAll().where('order_id', '=', order.id).executeTakeFirst());
  const after = countsAsSale(order) ? factOf(order, items, zone ?? (await zoneOf(trx, order.restaurant_id))) : null;
  if (sameFact(before, after)) return;
  if (before) await applyFact(trx, before, -1);
  if (after) await applyFact(trx, after, 1);
  if (before && !after) await db.deleteFrom('analytics_order_facts').where('order_id', '=', order.id).execute();
  if (after) await putFacts(db, [after]);
}

/** What the orders of one batch add to the roll-ups, written once at its end (see registerRollupHook). */
interface HeldRollups {
  daily: Map<string, DailyRow>;
  items: Map<string, ItemDailyRow>;
  facts: Map<string, OrderFact | null>;
}

const HELD = 'rollups';

/** Adds (or takes back) one order's contribution to a batch's held roll-ups. */
function holdFact(held: HeldRollups, f: OrderFact, sign: 1 | -1): void {
  const dk = `${f.restaurant_id}|${f.day}|${f.hour}|${f.type}`;
  const d = held.daily.get(dk) ?? { restaurant_id: f.restaurant_id, day: f.day, hour: f.hour, type: f.type, weekday: f.weekday, orders: 0, revenue: 0 };
  d.orders += sign;
  d.revenue += sign * f.revenue;
  held.daily.set(dk, d);
  for (const [id, qty, rev] of f.items) {
    const ik = `${f.restaurant_id}|${f.day}|${id}`;
    const i = held.items.get(ik) ?? { restaurant_id: f.restaurant_id, day: f.day, menu_item_id: id, quantity: 0, revenue: 0, orders: 0 };
    i.quantity += sign * qty;
    i.revenue += sign * rev;
    i.orders += sign;
    held.items.set(ik, i);
  }
}

/** A batch's held roll-ups in one upsert per table (and one delete of facts no longer counted). */
async function writeHeld(trx: Executor, held: HeldRollups): Promise<void> {
  const db = trx as Kysely<DB>;
  const chunks = <T>(xs: T[]) => Array.from({ length: Math.ceil(xs.length / 500) }, (_, i) => xs.slice(i * 500, i * 500 + 500));
  for (const rows of chunks([...held.daily.values()])) await addDaily(db, rows);
  for (const rows of chunks([...held.items.values()])) await addItemDaily(db, rows);
  const gone = [...held.facts].filter(([, f]) => f === null).map(([id]) => id);
  for (const ids of chunks(gone)) await db.deleteFrom('analytics_order_facts').where('order_id', 'in', ids).execute();
  const kept = [...held.facts.values()].filter((f): f is OrderFact => f !== null);
  for (const facts of chunks(kept)) await putFacts(db, facts);
}

/**
 * A batch's order (sync): its roll-ups are held and written with the batch's others at its
 * end. An order of a customer goes the usual way: its customer's totals and points are read back.
 */
async function holdOrderRollups(trx: Executor, held: HeldRollups, order: OrderRow, items: OrderItemRow[], zone: string, isNew: boolean): Promise<boolean> {
  const db = trx as Kysely<DB>;
  const before = isNew ? null : readFact(await db.selectFrom('analytics_order_facts').selectAll().where('order_id', '=', order.id).executeTakeFirst());
  const after = countsAsSale(order) ? factOf(order, items, zone) : null;
  if (before?.customer_id || after?.customer_id) return false;
  if (sameFact(before, after)) return true;
  if (before) holdFact(held, before, -1);
  if (after) holdFact(held, after, 1);
  held.facts.set(order.id, after);
  return true;
}

let registered = false;

/** Registers the roll-up hook once per process. */
export function registerRollupHook(): void {
  if (registered) return;
  registered = true;
  onOrderChange(async (trx, change) => {
    const isNew = change.previousStatus === null;
    if (!change.shared) return syncOrderRollups(trx, change.order, change.items, undefined, isNew);
    // many orders changed together (a sync batch): the time zone is read once, and what they
    // add up is written once for the batch (onOrderBatchEnd below)
    const zone = await sharedRead(change, `zone:${change.order.restaurant_id}`, () => zoneOf(trx, change.order.restaurant_id));
    const held = await sharedRead(change, HELD, async (): Promise<HeldRollups> => ({ daily: new Map(), items: new Map(), facts: new Map() }));
    if (!(await holdOrderRollups(trx, held, change.order, change.items, zone, isNew))) await syncOrderRollups(trx, change.order, change.items, zone, isNew);
  });
  onOrderBatchEnd(async (trx, shared) => {
    const held = (await shared.get(HELD)) as HeldRollups | undefined;
    if (held) await writeHeld(trx, held);
  });
}
