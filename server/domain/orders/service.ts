import type { Executor } from '../../db/records.ts';
import { updateRecord } from '../../db/records.ts';
import { ApiError, notFound } from '../../errors.ts';
import type { Actor } from '../../services.ts';
import { seconds } from '../time.ts';
import { findOrder } from './find-order.ts';
import { recordOrderChange, type OrderContext } from './record-change.ts';
import { OPEN_STATUSES, statusFromLines, isBefore } from '../../model/orders.ts';
import { checkDiscountOf, lineBills, lineTax, totalsOf } from '../../model/totals.ts';
import type { OrderItemRow } from '../../db/tables/order-items.table.ts';
import type { OrderRow } from '../../db/tables/orders.table.ts';

/**
 * What a server does to a check during service: fire a held course, void a sent line, discount
 * or comp, move lines between seats, take the check to another table. Each is one command in
 * one transaction, re-bills the order with totalsOf and emits its own event.
 */

type Current = { order: OrderRow; items: OrderItemRow[] };

/** The open check `id`, locked for the command that will write it back (a quote only reads: `forUpdate: false`). */
export async function openOrder(trx: Executor, actor: Actor, id: string, { forUpdate = true } = {}): Promise<Current> {
  const found = await findOrder(trx, actor, id, { forUpdate });
  if (!found) throw notFound('order', id);
  if (!OPEN_STATUSES.includes(found.order.status) && found.order.status !== 'draft') {
    throw new ApiError('order_not_open', `This order is '${found.order.status}'; a closed check no longer changes.`, 'id');
  }
  return found;
}

function lineAt(current: Current, index: number): OrderItemRow {
  const line = current.items.find((i) => i.idx === index);
  if (!line) throw notFound('order line', String(index), 'index');
  return line;
}

export async function rebill(trx: Executor, actor: Actor, order: OrderRow, items: OrderItemRow[], patch: Partial<OrderRow> = {}) {
  const next = { ...order, ...patch };
  const totals = totalsOf(items, next);
  // money taken stays covered: a void or discount may not leave the check owing less than was paid
  const paid = Number(next.amount_paid);
  if (paid > 0 && totals.total - Number(next.amount_returned ?? 0) < paid && totals.total < Number(order.total)) {
    throw new ApiError(
      'state_conflict',
      `This check has ${paid} paid already: taking it down to ${totals.total} would leave the guest paid more than the bill. Refund the difference first.`,
      'id',
    );
  }
  const wanted = statusFromLines(items);
  const status = wanted && OPEN_STATUSES.includes(order.status) && isBefore(order.status, wanted) ? wanted : order.status;
  return (await updateRecord(trx, 'orders', order, { ...patch, ...totals, status, updated: seconds(actor) }))!;
}

export const replace = (items: OrderItemRow[], saved: OrderItemRow[]) => items.map((i) => saved.find((s) => s.id === i.id) ?? i);

/** Sends a held course to its stations: tickets and screens get exactly its lines, now. */
export async function fireCourse(trx: Executor, actor: Actor, ctx: OrderContext, id: string, course: number, sender: string | null = null) {
  const current = await openOrder(trx, actor, id);
  if (current.order.status === 'draft') throw new ApiError('order_not_open', 'Place the order first: a draft has nothing at the stations yet.', 'id');
  const held = current.items.filter((i) => i.course === course && i.held === 1 && !i.voided_at);
  if (held.length === 0) throw new ApiError('state_conflict', `Course ${course} has no held lines on this order.`, 'course');
  const now = seconds(actor);
  const saved: OrderItemRow[] = [];
  for (const line of held) saved.push((await updateRecord(trx, 'order_items', line, { held: 0, sent_to_kitchen_at: now, sent_by: sender, updated: now }))!);
  const items = replace(current.items, saved);
  const order = (await updateRecord(trx, 'orders', current.order, { updated: now }))!;
  return recordOrderChange(trx, ctx, {
    actor,
    order,
    items,
    previousStatus: current.order.status,
    newItemIds: [],
    changedItemIds: [],
    firedItemIds: saved.map((s) => s.id),
    event: 'order.course_fired',
    detail: { course, items: saved.map((s) => s.idx) },
  });
}

/** Holds lines of a course not yet sent (the dessert waits until the mains are cleared). */
export async function holdCourse(trx: Executor, actor: Actor, ctx: OrderContext, id: string, course: number) {
  const current = await openOrder(trx, actor, id);
  const lines = current.items.filter((i) => i.course === course && i.held === 0 && i.sent_to_kitchen_at === null && !i.voided_at);
  if (lines.length === 0) throw new ApiError('state_conflict', `Course ${course} has no unsent lines to hold.`, 'course');
  const now = seconds(actor);
  const saved: OrderItemRow[] = [];
  for (const line of lines) saved.push((await updateRecord(trx, 'order_items', line, { held: 1, updated: now }))!);
  const order = (await updateRecord(trx, 'orders', current.order, { updated: now }))!;
  return recordOrderChange(trx, ctx, {
    actor, order, items: replace(current.items, saved), previousStatus: current.order.status, newItemIds: [], changedItemIds: [], event: 'order.updated',
  });
}

/** A line that should not be cooked or billed: kept on the check, counted nowhere, taken back from its station. */
export async function voidLine(trx: Executor, actor: Actor, ctx: OrderContext, id: string, index: number, input: { reason: string; by: string | null }) {
  const current = await openOrder(trx, actor, id);
  const line = lineAt(current, index);
  if (line.voided_at) return current;
  const now = seconds(actor);
  const saved = (await updateRecord(trx, 'order_items', line, { voided_at: now, void_reason: input.reason, voided_by: input.by, held: 0, updated: now }))!;
  const items = replace(current.items, [saved]);
  const order = await rebill(trx, actor, current.order, items);
  return recordOrderChange(trx, ctx, {
    actor,
    order,
    items,
    previousStatus: current.order.status,
    newItemIds: [],
    changedItemIds: [],
    voidedItemIds: [saved.id],
    event: 'order.item_voided',
    detail: { item: index, reason: input.reason, voided_by: input.by },
  });
}

export interface DiscountInput {
  /** minor units off; or */
  amount?: number;
  /** percent off (1–100); 100 on a line is a comp */
  percent?: number;
  reason: string;
  approvedBy: string | null;
}

/** How much off: an amount as given, or a percent of `base` rounded half up; never more than `base`. */
function discountOf(base: number, input: Pick<DiscountInput, 'amount' | 'percent'>): number {
  const off = input.percent !== undefined ? Math.floor((base * input.percent + 50) / 100) : input.amount!;
  if (off > base) throw new ApiError('parameter_invalid', `A discount of ${off} is more than the ${base} it is taken from.`, input.percent !== undefined ? 'percent' : 'amount');
  return off;
}

/** What a discount of line `index` (its price) or of the whole check (null: its lines after their own discounts) is taken from. */
function discountBase(current: Current, index: number | null): number {
  if (index === null) return checkDiscountOf(lineBills(current.items, current.order)).check_discount_base;
  const line = lineAt(current, index);
  if (line.voided_at) throw new ApiError('state_conflict', `Line ${index} is voided.`, 'index');
  return line.line_subtotal;
}

/**
 * What a discount would take off (neither amount nor percent: nothing), written nowhere: the
 * discount sheet shows this before it is applied, by the rule discountLine and discountCheck
 * record, so the browser works out no amount.
 */
export async function quoteDiscount(db: Executor, actor: Actor, id: string, index: number | null, input: Pick<DiscountInput, 'amount' | 'percent'>) {
  const base = discountBase(await openOrder(db, actor, id, { forUpdate: false }), index);
  const amount = input.amount === undefined && input.percent === undefined ? 0 : discountOf(base, input);
  return { base, amount, left: base - amount };
}

/** A discount (or a comp: 100 percent) on one line; its tax is on what is left. Zero takes it off. */
export async function discountLine(trx: Executor, actor: Actor, ctx: OrderContext, id: string, index: number, input: DiscountInput) {
  const current = await openOrder(trx, actor, id);
  const line = lineAt(current, index);
  const off = discountOf(discountBase(current, index), input);
  const now = seconds(actor);
  const saved = (await updateRecord(trx, 'order_items', line, {
    discount_amount: off,
    discount_reason: off ? input.reason : null,
    discount_approved_by: off ? input.approvedBy : null,
    tax_amount: lineTax(line.line_subtotal - off, line.tax_rate, current.order.prices_include_tax === 1),
    updated: now,
  }))!;
  const items = replace(current.items, [saved]);
  const order = await rebill(trx, actor, current.order, items);
  return recordOrderChange(trx, ctx, {
    actor, order, items, previousStatus: current.order.status, newItemIds: [], changedItemIds: [], event: 'order.discounted',
    detail: { item: index, discount_amount: off, reason: input.reason, approved_by: input.approvedBy },
  });
}

/** A discount on the whole check, taken from what the lines come to after their own discounts. */
export async function discountCheck(trx: Executor, actor: Actor, ctx: OrderContext, id: string, input: DiscountInput) {
  const current = await openOrder(trx, actor, id);
  const off = discountOf(discountBase(current, null), input);
  const order = await rebill(trx, actor, current.order, current.items, {
    check_discount_amount: off,
    discount_reason: off ? input.reason : null,
    discount_approved_by: off ? input.approvedBy : null,
  });
  return recordOrderChange(trx, ctx, {
    actor, order, items: current.items, previousStatus: current.order.status, newItemIds: [], changedItemIds: [], event: 'order.discounted',
    detail: { discount_amount: off, reason: input.reason, approved_by: input.approvedBy },
  });
}

/** Moves lines to another seat (and/or course): the guest changed places, or the runner asked. */
export async function moveLines(trx: Executor, actor: Actor, ctx: OrderContext, id: string, input: { items: number[]; seat?: number | null; course?: number | null }) {
  const current = await openOrder(trx, actor, id);
  const now = seconds(actor);
  const saved: OrderItemRow[] = [];
  for (const index of input.items) {
    const line = lineAt(current, index);
    saved.push((await updateRecord(trx, 'order_items', line, {
      ...(input.seat !== undefined ? { seat: input.seat } : {}),
      ...(input.course !== undefined ? { course: input.course } : {}),
      updated: now,
    }))!);
  }
  const order = (await updateRecord(trx, 'orders', current.order, { updated: now }))!;
  return recordOrderChange(trx, ctx, {
    actor, order, items: replace(current.items, saved), previousStatus: current.order.status, newItemIds: [], changedItemIds: [], event: 'order.items_moved',
    detail: { items: input.items, seat: input.seat, course: input.course },
  });
}

/** The party's size on an open check (covers), said or corrected by its server. */
export async function setCovers(trx: Executor, actor: Actor, ctx: OrderContext, id: string, covers: number | null) {
  const current = await openOrder(trx, actor, id);
  if (current.order.covers === covers) return current;
  const order = (await updateRecord(trx, 'orders', current.order, { covers, updated: seconds(actor) }))!;
  return recordOrderChange(trx, ctx, {
    actor, order, items: current.items, previousStatus: current.order.status, newItemIds: [], changedItemIds: [], event: 'order.updated',
  });
}

/** The open order sitting at a table, if any (one open check per table). */
export async function openOrderAt(db: Executor, actor: Actor, tableId: string) {
  return db
    .selectFrom('orders')
    .select('id')
    .where('restaurant_id', '=', actor.restaurantId)
    .where('livemode', '=', actor.livemode ? 1 : 0)
    .where('table_id', '=', tableId)
    .where('status', 'in', ['draft', ...OPEN_STATUSES])
    .executeTakeFirst();
}

/** Takes the check to another table (the party moved); a table that has its own open check refuses. */
export async function transferOrder(trx: Executor, actor: Actor, ctx: OrderContext, id: string, tableId: string) {
  const current = await openOrder(trx, actor, id);
  if (current.order.type !== 'dine_in') throw new ApiError('parameter_invalid', 'Only a dine_in order sits at a table.', 'table');
  if (current.order.table_id === tableId) return current;
  const table = await trx.selectFrom('tables').select(['id', 'is_active']).where('restaurant_id', '=', actor.restaurantId).where('id', '=', tableId).executeTakeFirst();
  if (!table) throw notFound('table', tableId, 'table');
  if (table.is_active !== 1) throw new ApiError('parameter_invalid', `Table '${tableId}' is not in use.`, 'table');
  const there = await openOrderAt(trx, actor, tableId);
  if (there) throw new ApiError('state_conflict', `Table '${tableId}' already has an open check (${there.id}); merge the checks instead.`, 'table');
  const from = current.order.table_id;
  const order = (await updateRecord(trx, 'orders', current.order, { table_id: tableId, updated: seconds(actor) }))!;
  return recordOrderChange(trx, ctx, {
    actor, order, items: current.items, previousStatus: current.order.status, newItemIds: [], changedItemIds: [], event: 'order.transferred',
    detail: { from_table: from, to_table: tableId },
  });
}
