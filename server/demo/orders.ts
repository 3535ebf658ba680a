import type { Insertable, Selectable } from 'kysely';
import { insertRecords } from '../db/records.ts';
import type { Executor } from '../db/records.ts';
import type { MenuItemsTable } from '../db/tables/menu-items.table.ts';
import type { OrderItemsTable } from '../db/tables/order-items.table.ts';
import type { OrdersTable } from '../db/tables/orders.table.ts';
import { DateTime } from 'luxon';
import { DEFAULT_STATION, lineTax, type PricedModifier } from '../domain/orders/pricing.ts';
import { createQrCode } from '../domain/orders/qr-codes.ts';
import { getRestaurant } from '../domain/restaurants/restaurants.ts';
import type { Modifier } from '../model/menu.ts';
import { newId, PREFIXES } from '../ids.ts';
import type { Actor } from '../services.ts';
import type { DemoStep } from './step.ts';
import { seededRandom as rng } from './random.ts';

const FIRST = ['Giulia', 'Marco', 'Sofia', 'Luca', 'Anna', 'Paul', 'Lea', 'Jonas', 'Mia', 'Noah', 'Emma', 'Ben', 'Clara', 'Felix', 'Ida'];
const LAST = ['Rossi', 'Müller', 'Bianchi', 'Schmidt', 'Romano', 'Weber', 'Ricci', 'Fischer', 'Greco', 'Wagner', 'Conti', 'Becker'];
const STREETS = ['Kastanienallee', 'Oranienstraße', 'Bergmannstraße', 'Torstraße', 'Schönhauser Allee', 'Kollwitzstraße'];


type Catalogue = { item: Selectable<MenuItemsTable>; station: string; groups: { id: string; min: number; max: number; list: Modifier[] }[] }[];

async function loadCatalogue(db: Executor, restaurantId: string): Promise<Catalogue> {
  const items = await db.selectFrom('menu_items').selectAll().where('restaurant_id', '=', restaurantId).where('is_active', '=', 1).execute();
  const cats = await db.selectFrom('menu_categories').select(['id', 'station']).where('restaurant_id', '=', restaurantId).execute();
  const groups = await db.selectFrom('modifier_groups').selectAll().where('restaurant_id', '=', restaurantId).execute();
  const station = new Map(cats.map((c) => [c.id, c.station]));
  const group = new Map(groups.map((g) => [g.id, { id: g.id, min: Math.max(g.min_selections, g.required), max: g.max_selections, list: JSON.parse(g.modifiers) as Modifier[] }]));
  return items.map((item) => ({
    item,
    station: station.get(item.category_id) ?? DEFAULT_STATION,
    groups: (JSON.parse(item.modifier_group_ids) as string[]).flatMap((id) => group.get(id) ?? []),
  }));
}

/**
 * One past business day of orders, written with bulk inserts in one transaction. Prices,
 * modifiers, taxes and stations follow the same rules as live orders. History is imported,
 * not lived: it emits no events and runs no order hooks (no tickets for last year).
 */
async function historyDay(
  trx: Executor,
  actor: Actor,
  env: {
    catalogue: Catalogue;
    tables: string[];
    customers: { id: string; name: string; email: string }[];
    nextGuest: () => { id: string; name: string; email: string };
    timezone: string;
    currency: string;
    taxRate: number;
  },
  dayStartMs: number,
  date: string,
  count: number,
  rand: () => number,
) {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
  const orders: Insertable<OrdersTable>[] = [];
  const lines: Insertable<OrderItemsTable>[] = [];
  // lunch 11:30–14:30 and dinner 17:30–23:00, dinner twice as busy
  const moments = Array.from({ length: count }, () =>
    rand() < 0.35 ? (11.5 + rand() * 3) * 3600_000 : (17.5 + rand() * 5.5) * 3600_000,
  ).sort((a, b) => a - b);
  moments.forEach((offset, n) => {
    const createdMs = dayStartMs + Math.floor(offset);
    const created = Math.floor(createdMs / 1000);
    const r = rand();
    const type = r < 0.62 ? 'dine_in' : r < 0.85 ? 'takeout' : 'delivery';
    const cancelled = rand() < 0.04;
    // regulars first: each guest of the list gets a sale before any comes back, so no demo
    // guest sits in the list with 0 visits (a cancelled order is nobody's visit)
    const guest = type !== 'dine_in' || rand() < 0.25 ? (cancelled ? pick(env.customers) : env.nextGuest()) : null;
    const id = newId(PREFIXES.order, createdMs);
    let subtotal = 0;
    let tax = 0;
    const nLines = 1 + Math.floor(rand() * rand() * 6);
    for (let idx = 0; idx < nLines; idx++) {
      const { item, station, groups } = pick(env.catalogue);
      const modifiers: PricedModifier[] = [];
      for (const g of groups) {
        const available = g.list.filter((m) => m.is_available);
        const want = Math.min(available.length, g.max, g.min + (rand() < 0.3 ? 1 : 0));
        const start = Math.floor(rand() * available.length);
        for (let k = 0; k < want; k++) {
          const m = available[(start + k) % available.length];
          modifiers.push({ group: g.id, name: m.name, price_adjustment: m.price_adjustment });
        }
      }
      const quantity = rand() < 0.8 ? 1 : 2 + Math.floor(rand() * 3);
      const lineSubtotal = (item.price + modifiers.reduce((s, m) => s + m.price_adjustment, 0)) * quantity;
      const rate = item.tax_rate ?? env.taxRate;
      const lineTaxAmount = lineTax(lineSubtotal, rate);
      subtotal += lineSubtotal;
      tax += lineTaxAmount;
      lines.push({
        id: newId(PREFIXES.orderItem, createdMs),
        restaurant_id: actor.restaurantId,
        order_id: id,
        idx,
        menu_item_id: item.id,
        name: item.name,
        quantity,
        unit_price: item.price,
        modifiers: JSON.stringify(modifiers),
        line_subtotal: lineSubtotal,
        tax_rate: rate,
        tax_amount: lineTaxAmount,
        notes: null,
        status: cancelled ? 'pending' : 'served',
        station,
        round: 1,
        sent_to_kitchen_at: created + 30,
        ready_at: cancelled ? null : created + 600 + Math.floor(rand() * 900),
        created,
        updated: created,
      });
    }
    const tip = type === 'dine_in' && !cancelled && rand() < 0.6 ? Math.round((subtotal * (0.05 + rand() * 0.07)) / 10) * 10 : 0;
    const fee = type === 'delivery' ? 290 : 0;
    const end = created + (type === 'dine_in' ? 3600 + Math.floor(rand() * 3600) : 1800 + Math.floor(rand() * 1200));
    orders.push({
      id,
      restaurant_id: actor.restaurantId,
      order_number: String(n + 1),
      business_date: date,
      type,
      status: cancelled ? 'cancelled' : 'completed',
      source: type === 'dine_in' ? (rand() < 0.3 ? 'qr' : 'pos') : rand() < 0.5 ? 'api' : 'pos',
      table_id: type === 'dine_in' ? pick(env.tables) : null,
      server_id: null,
      customer_id: guest?.id ?? null,
      customer_name: guest?.name ?? null,
      customer_phone: null,
      customer_email: guest?.email ?? null,
      delivery_address: type === 'delivery' ? `${pick(STREETS)} ${1 + Math.floor(rand() * 120)}, Berlin` : null,
      estimated_time_minutes: type === 'dine_in' ? null : 20 + Math.floor(rand() * 25),
      subtotal,
      tax_amount: tax,
      discount_amount: 0,
      tip_amount: tip,
      delivery_fee: fee,
      amount_paid: 0,
      total: subtotal + tax + tip + fee,
      currency: env.currency,
      notes: null,
      placed_at: created,
      completed_at: cancelled ? null : end,
      cancelled_at: cancelled ? created + 300 : null,
      cancel_reason: cancelled ? pick(['Guest left', 'Out of stock', 'Ordered by mistake', 'Kitchen closed']) : null,
      is_self_service: 0,
      is_virtual_table: 0,
      virtual_table_label: null,
      qr_code_id: null,
      livemode: 1,
      created,
      updated: cancelled ? created + 300 : end,
    });
  });
  await insertRecords(trx, 'orders', orders);
  await insertRecords(trx, 'order_items', lines);
}

/** One QR code per table (printed in the demo result) and, if asked, days of order history. */
export const ordersDemo: DemoStep = async (tx, actor, opts, result) => {
  const qr = await tx.run(async (trx) => {
    const tables = await trx.selectFrom('tables').select(['id', 'number']).where('restaurant_id', '=', actor.restaurantId).orderBy('number').execute();
    const out: { table: string; table_number: number; token: string }[] = [];
    for (const t of tables) {
      const code = await createQrCode(trx, actor, { table: t.id, label: `Table ${t.number}` });
      out.push({ table: t.id, table_number: t.number, token: code.token });
    }
    return out;
  });
  result.qr = qr;
  if (opts.historyDays <= 0) return;

  const restaurant = await getRestaurant(tx.db, actor.restaurantId);
  const catalogue = (await loadCatalogue(tx.db, actor.restaurantId)).filter((c) => c.item.is_available === 1);
  const rand = rng(opts.historyDays * 7919 + opts.ordersPerDay);
  // about one named sale in two: a list of a third of the orders is walked through at least once
  const guestCount = Math.max(1, Math.min(2000, Math.floor(opts.historyDays * opts.ordersPerDay * 0.3)));
  const customers = Array.from({ length: guestCount }, (_, i) => {
    const name = `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length) % LAST.length]}`;
    return { id: '', name, email: `${name.toLowerCase().replace(/[^a-z]+/g, '.')}.${i}@example.com` };
  });
  const today = DateTime.fromMillis(actor.now, { zone: restaurant.timezone }).startOf('day');
  const firstSeen = Math.floor(today.minus({ days: opts.historyDays }).toMillis() / 1000);
  await tx.run(async (trx) => {
    const rows = customers.map((c) => ({
      id: newId(PREFIXES.customer, firstSeen * 1000),
      restaurant_id: actor.restaurantId,
      name: c.name,
      email: c.email,
      phone: null,
      loyalty_points: 0,
      first_seen: firstSeen,
      created: firstSeen,
      updated: firstSeen,
    }));
    rows.forEach((r, i) => (customers[i].id = r.id));
    await insertRecords(trx, 'customers', rows);
  });
  let walked = 0;
  const nextGuest = () => (walked < customers.length ? customers[walked++] : customers[Math.floor(rand() * customers.length)]);
  const env = { catalogue, tables: qr.map((q) => q.table), customers, nextGuest, timezone: restaurant.timezone, currency: restaurant.currency, taxRate: restaurant.default_tax_rate };
  for (let d = opts.historyDays; d >= 1; d--) {
    const day = today.minus({ days: d });
    // quieter early in the week, busier on Friday and Saturday
    const factor = [0.8, 0.85, 0.9, 1.0, 1.25, 1.3, 0.9][day.weekday - 1];
    const count = Math.max(1, Math.round(opts.ordersPerDay * factor * (0.9 + rand() * 0.2)));
    await tx.run((trx) => historyDay(trx, actor, env, day.toMillis(), day.toISODate()!, count, rand));
  }
};
