import type { Executor } from '../../db/records.ts';
import { insertCompleteRecord, insertRecords, updateRecord } from '../../db/records.ts';
import { ApiError, notFound } from '../../errors.ts';
import { catalogueOf } from '../menu/catalogue.ts';
import { newId, PREFIXES } from '../../ids.ts';
import type { Actor } from '../../services.ts';
import { findOrCreateCustomer } from '../customers/match-customer.ts';
import { seconds } from '../time.ts';
import { businessDate } from './business-date.ts';
import { wallClock } from '../wall-clock.ts';
import { nextOrderNumber } from './order-number.ts';
import { priceLines, type LineInput, type PricedLine } from './pricing.ts';
import { recordOrderChange, type OrderContext } from './record-change.ts';
import { totalsOf } from '../../model/totals.ts';
import { appendedInOrder, placeLines } from './positions.ts';
import { OPEN_STATUSES } from '../../model/orders.ts';
import type { OrderItemRow } from '../../db/tables/order-items.table.ts';
import type { OrderRow } from '../../db/tables/orders.table.ts';

export interface NewOrder {
  type: OrderRow['type'];
  items: LineInput[];
  table?: string | null;
  server?: string | null;
  /** the staff member ringing the lines in (their round's sender); the server may be another */
  sender?: string | null;
  customer_name?: string | null;
  customer_phone?: string | null;
  customer_email?: string | null;
  delivery_address?: string | null;
  notes?: string | null;
  /** the party's size (a server asked it when opening the table) */
  covers?: number | null;
  source: string;
  /** v1 orders start as drafts; screens and guests place at once so the kitchen sees them */
  status: 'draft' | 'placed';
  is_self_service?: boolean;
  qr_code_id?: string | null;
  /** guest channels also respect category time windows (restaurant time) */
  guestMenu?: boolean;
}

export { totalsOf } from '../../model/totals.ts';

/** The kitchen works lines in parallel: the slowest line's preparation time, if any is known. */
export function estimateMinutes(lines: { preparation_time_minutes: number | null }[]): number | null {
  const known = lines.flatMap((l) => (l.preparation_time_minutes === null ? [] : [l.preparation_time_minutes]));
  return known.length ? Math.max(...known) : null;
}

export async function insertLines(
  trx: Executor,
  actor: Actor,
  order: OrderRow,
  priced: PricedLine[],
  from: { idx: number; round: number; sentToKitchen: boolean; sentBy: string | null },
): Promise<OrderItemRow[]> {
  const now = seconds(actor);
  const rows: OrderItemRow[] = priced.map((l, i) => ({
    id: newId(PREFIXES.orderItem, actor.now),
    restaurant_id: actor.restaurantId,
    order_id: order.id,
    idx: from.idx + i,
    menu_item_id: l.menu_item_id,
    name: l.name,
    quantity: l.quantity,
    unit_price: l.unit_price,
    modifiers: JSON.stringify(l.modifiers),
    line_subtotal: l.line_subtotal,
    tax_rate: l.tax_rate,
    tax_amount: l.tax_amount,
    notes: l.notes,
    status: 'pending',
    station: l.station,
    round: from.round,
    seat: l.seat,
    course: l.course,
    held: l.held ? 1 : 0,
    discount_amount: 0,
    discount_reason: null,
    discount_approved_by: null,
    voided_at: null,
    void_reason: null,
    voided_by: null,
    sent_to_kitchen_at: from.sentToKitchen && !l.held ? now : null,
    sent_by: from.sentBy,
    ready_at: null,
    created: now,
    updated: now,
  }));
  // One multi-row insert (and one change-log block) for all lines: an order is written in
  // a handful of statements however many lines it has.
  await insertRecords(trx, 'order_items', rows);
  return rows;
}

export async function createOrder(trx: Executor, actor: Actor, ctx: OrderContext, input: NewOrder) {
  const catalogue = await catalogueOf(trx, actor.restaurantId);
  const { restaurant } = catalogue;
  if (input.table) {
    const table = await trx
      .selectFrom('tables')
      .select(['id', 'is_active'])
      .where('restaurant_id', '=', actor.restaurantId)
      .where('id', '=', input.table)
      .executeTakeFirst();
    if (!table) throw notFound('table', input.table, 'table');
    if (input.type !== 'dine_in') throw new ApiError('parameter_invalid', 'Only a dine_in order sits at a table.', 'table');
    if (table.is_active !== 1) throw new ApiError('parameter_invalid', `Table '${input.table}' is not in use.`, 'table');
  }
  if (input.server) {
    const user = await trx
      .selectFrom('users')
      .select(['id', 'is_active'])
      .where('restaurant_id', '=', actor.restaurantId)
      .where('id', '=', input.server)
      .executeTakeFirst();
    if (!user || user.is_active !== 1) throw notFound('user', input.server, 'server');
  }
  if (input.type === 'delivery' && ctx.fleet && !input.delivery_address) {
    throw new ApiError('delivery_address_required', 'A delivery order needs a delivery_address: couriers are dispatched to it.', 'delivery_address');
  }
  const priced = priceLines(catalogue, input.items, {
    defaultTaxRate: restaurant.default_tax_rate,
    pricesIncludeTax: catalogue.pricesIncludeTax,
    availableAt: input.guestMenu ? wallClock(actor.now, restaurant.timezone) : undefined,
  });
  const customer = await findOrCreateCustomer(trx, actor, {
    name: input.customer_name,
    email: input.customer_email,
    phone: input.customer_phone,
  });
  const business_date = businessDate(actor.now, restaurant.timezone);
  const now = seconds(actor);
  const money = { tip_amount: 0, delivery_fee: 0, prices_include_tax: catalogue.pricesIncludeTax ? 1 : 0, check_discount_amount: 0, amount_paid: 0, amount_returned: 0 };
  const placed = input.status === 'placed';
  const order = await insertCompleteRecord(trx, 'orders', {
    id: newId(PREFIXES.order, actor.now),
    restaurant_id: actor.restaurantId,
    // Sandbox orders count on their own ("T3"), leaving no gaps in the live numbers.
    order_number: await nextOrderNumber(trx, actor.restaurantId, business_date, (actor.livemode ? '' : 'T') + ctx.nodeTag),
    business_date,
    type: input.type,
    status: input.status,
    source: input.source,
    table_id: input.table ?? null,
    server_id: input.server ?? null,
    customer_id: customer?.id ?? null,
    customer_name: input.customer_name || null,
    customer_phone: input.customer_phone || null,
    customer_email: input.customer_email || null,
    delivery_address: input.delivery_address || null,
    estimated_time_minutes: estimateMinutes(priced),
    ...money,
    ...totalsOf(priced, money),
    discount_reason: null,
    discount_approved_by: null,
    currency: restaurant.currency,
    notes: input.notes || null,
    placed_at: placed ? now : null,
    completed_at: null,
    cancelled_at: null,
    cancel_reason: null,
    cancel_approved_by: null,
    merged_into: null,
    covers: input.covers ?? null,
    is_self_service: input.is_self_service ? 1 : 0,
    is_virtual_table: 0,
    virtual_table_label: null,
    qr_code_id: input.qr_code_id ?? null,
    livemode: actor.livemode ? 1 : 0,
    created: now,
    updated: now,
  });
  const items = await insertLines(trx, actor, order, priced, { idx: 0, round: 1, sentToKitchen: placed, sentBy: input.sender ?? null });
  return recordOrderChange(trx, ctx, {
    actor,
    order,
    items,
    previousStatus: null,
    newItemIds: items.map((i) => i.id),
    changedItemIds: [],
    event: 'order.created',
  });
}

/**
 * A further round on an open order (a guest's second drinks): the new lines follow the old
 * ones, start pending and go to the kitchen at once; totals grow by exactly their sums.
 */
export async function addRound(trx: Executor, actor: Actor, ctx: OrderContext, current: { order: OrderRow; items: OrderItemRow[] }, lines: LineInput[], opts: { guestMenu?: boolean; sender?: string | null } = {}) {
  const { order } = current;
  if (!OPEN_STATUSES.includes(order.status)) {
    throw new ApiError('order_not_open', `This order is '${order.status}'; only a placed order still being served takes more items.`, 'items');
  }
  if (current.items.length + lines.length > 100) {
    throw new ApiError('parameter_invalid', 'An order holds at most 100 lines.', 'items');
  }
  const catalogue = await catalogueOf(trx, actor.restaurantId);
  const { restaurant } = catalogue;
  const priced = priceLines(catalogue, lines, {
    defaultTaxRate: restaurant.default_tax_rate,
    pricesIncludeTax: order.prices_include_tax === 1,
    availableAt: opts.guestMenu ? wallClock(actor.now, restaurant.timezone) : undefined,
  });
  const round = Math.max(0, ...current.items.map((i) => i.round)) + 1;
  const added = await insertLines(trx, actor, order, priced, { idx: current.items.length, round, sentToKitchen: true, sentBy: opts.sender ?? null });
  // a line the other node rang in later than this round (its clock ahead) stays after it
  const items = appendedInOrder(current.items, added)
    ? [...current.items, ...added]
    : (await placeLines(trx, order.id, seconds(actor), [...current.items, ...added]))!;
  // the order's estimate stays the longest preparation time of all its lines, this round's too
  const estimate = [order.estimated_time_minutes, estimateMinutes(priced)].filter((m): m is number => m !== null);
  const saved = (await updateRecord(trx, 'orders', order, {
    ...totalsOf(items, order),
    estimated_time_minutes: estimate.length ? Math.max(...estimate) : null,
    updated: seconds(actor),
  }))!;
  return recordOrderChange(trx, ctx, {
    actor,
    order: saved,
    items,
    previousStatus: order.status,
    newItemIds: added.map((i) => i.id),
    changedItemIds: [],
    event: 'order.updated',
  });
}
