import { DateTime } from 'luxon';
import { insertRecord, updateRecord } from '../../server/db/records.ts';
import { findOrCreateCustomer } from '../../server/domain/customers/match-customer.ts';
import { runOrderHooks } from '../../server/domain/orders/hooks.ts';
import { newId, PREFIXES } from '../../server/ids.ts';
import type { Services } from '../../server/services.ts';
import type { TestHub } from '../helpers/server.ts';
import { seededRandom } from '../../server/demo/random.ts';
import type { OrderItemRow } from '../../server/db/tables/order-items.table.ts';
import type { OrderRow } from '../../server/db/tables/orders.table.ts';

export interface FixtureLine {
  menuItemId: string;
  name: string;
  quantity: number;
  unitPrice: number;
}

export interface FixtureOrder {
  /** Unix seconds */
  created: number;
  placedAt?: number | null;
  status: OrderRow['status'];
  type?: OrderRow['type'];
  livemode?: boolean;
  lines: FixtureLine[];
  customer?: { name?: string; email?: string; phone?: string };
  tip?: number;
  discount?: number;
}

let counter = 0;

function totals(items: { line_subtotal: number }[], tip: number, discount: number) {
  const subtotal = items.reduce((n, i) => n + i.line_subtotal, 0);
  const tax = Math.round(subtotal * 0.07);
  return { subtotal, tax_amount: tax, total: subtotal + tax + tip - discount };
}

function lineRow(restaurantId: string, orderId: string, idx: number, l: FixtureLine, round: number, now: number) {
  return {
    id: newId(PREFIXES.orderItem, now * 1000),
    restaurant_id: restaurantId,
    order_id: orderId,
    idx,
    menu_item_id: l.menuItemId,
    name: l.name,
    quantity: l.quantity,
    unit_price: l.unitPrice,
    modifiers: '[]',
    line_subtotal: l.unitPrice * l.quantity,
    tax_rate: 0.07,
    tax_amount: Math.round(l.unitPrice * l.quantity * 0.07),
    notes: null,
    status: 'pending' as const,
    station: 'kitchen',
    round,
    sent_to_kitchen_at: null,
    ready_at: null,
    created: now,
    updated: now,
  };
}

/**
 * Writes an order and its lines the way an order command does: records through
 * insertRecord in one transaction, then every order hook in that same transaction.
 */
export async function createOrder(hub: TestHub, o: FixtureOrder, restaurantId = hub.restaurant.id): Promise<{ order: OrderRow; items: OrderItemRow[] }> {
  return createOrderWith(hub.server.services, restaurantId, o);
}

export async function createOrderWith(services: Services, restaurantId: string, o: FixtureOrder): Promise<{ order: OrderRow; items: OrderItemRow[] }> {
  const actor = { restaurantId, livemode: o.livemode !== false, now: o.created * 1000 };
  return services.tx.run(async (trx) => {
    const zone = (await trx.selectFrom('restaurants').select('timezone').where('id', '=', restaurantId).executeTakeFirstOrThrow()).timezone;
    const customer = o.customer ? await findOrCreateCustomer(trx, actor, o.customer) : null;
    const id = newId(PREFIXES.order, actor.now);
    const rows = o.lines.map((l, i) => lineRow(restaurantId, id, i, l, 1, o.created));
    const t = totals(rows, o.tip ?? 0, o.discount ?? 0);
    const placedAt = o.placedAt === undefined ? (o.status === 'draft' ? null : o.created) : o.placedAt;
    const order = await insertRecord(trx, 'orders', {
      id,
      restaurant_id: restaurantId,
      order_number: `F${++counter}-${Math.random().toString(36).slice(2, 8)}`,
      business_date: DateTime.fromSeconds(o.created, { zone }).toISODate()!,
      type: o.type ?? 'dine_in',
      status: o.status,
      source: 'pos',
      table_id: null,
      server_id: null,
      customer_id: customer?.id ?? null,
      customer_name: o.customer?.name ?? null,
      customer_phone: o.customer?.phone ?? null,
      customer_email: o.customer?.email ?? null,
      delivery_address: null,
      estimated_time_minutes: null,
      ...t,
      discount_amount: o.discount ?? 0,
      tip_amount: o.tip ?? 0,
      delivery_fee: 0,
      amount_paid: 0,
      currency: 'eur',
      notes: null,
      placed_at: placedAt,
      completed_at: o.status === 'completed' ? o.created + 3600 : null,
      cancelled_at: o.status === 'cancelled' ? o.created + 600 : null,
      cancel_reason: null,
      is_self_service: 0,
      is_virtual_table: 0,
      virtual_table_label: null,
      qr_code_id: null,
      livemode: actor.livemode ? 1 : 0,
      created: o.created,
      updated: o.created,
    });
    const items: OrderItemRow[] = [];
    for (const r of rows) items.push(await insertRecord(trx, 'order_items', r));
    await runOrderHooks(trx, services.registry.hooks.orders, { actor, order, items, previousStatus: null, newItemIds: items.map((i) => i.id), changedItemIds: [] });
    return { order, items };
  });
}

/** Moves an order (status, placed_at) and/or appends a round of lines, then runs the hooks. */
export async function changeOrder(
  hub: TestHub,
  orderId: string,
  at: number,
  change: { status?: OrderRow['status']; placedAt?: number; append?: FixtureLine[] },
): Promise<{ order: OrderRow; items: OrderItemRow[] }> {
  return changeOrderWith(hub.server.services, orderId, at, change);
}

export async function changeOrderWith(
  services: Services,
  orderId: string,
  at: number,
  change: { status?: OrderRow['status']; placedAt?: number; append?: FixtureLine[] },
): Promise<{ order: OrderRow; items: OrderItemRow[] }> {
  return services.tx.run(async (trx) => {
    const before = await trx.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
    const actor = { restaurantId: before.restaurant_id, livemode: before.livemode === 1, now: at * 1000 };
    let items = await trx.selectFrom('order_items').selectAll().where('order_id', '=', orderId).orderBy('idx').execute();
    const added: OrderItemRow[] = [];
    for (const l of change.append ?? []) {
      added.push(await insertRecord(trx, 'order_items', lineRow(before.restaurant_id, orderId, items.length + added.length, l, 2, at)));
    }
    items = [...items, ...added];
    const t = totals(items, before.tip_amount, before.discount_amount);
    const status = change.status ?? before.status;
    const order = (await updateRecord(trx, 'orders', { id: orderId, restaurant_id: before.restaurant_id }, {
      ...t,
      status,
      placed_at: change.placedAt ?? before.placed_at,
      cancelled_at: status === 'cancelled' ? at : before.cancelled_at,
      completed_at: status === 'completed' ? at : before.completed_at,
      updated: at,
    }))!;
    await runOrderHooks(trx, services.registry.hooks.orders, {
      actor,
      order,
      items,
      previousStatus: before.status,
      newItemIds: added.map((i) => i.id),
      changedItemIds: [],
    });
    return { order, items };
  });
}

export const prng = seededRandom;
