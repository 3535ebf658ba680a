import type { Executor } from '../../db/records.ts';
import { updateRecord } from '../../db/records.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../../services.ts';
import { countPaid } from '../payments/balance.ts';
import { seconds } from '../time.ts';
import { recordOrderChange, type OrderContext } from './record-change.ts';
import { openOrder, rebill } from './service.ts';
import { placeLines } from './positions.ts';
import { totalsOf } from '../../model/totals.ts';
import type { OrderItemRow } from '../../db/tables/order-items.table.ts';

/**
 * Two parties pushed their tables together: one check takes in the other. Its lines move with
 * their status, course, hold and discounts (each at its place among the check's own by when it was rung in, keeping their ids,
 * so a payment by lines still names them); their seats are numbered on after the check's
 * highest seat, so seat 1 of each table stays two people; payments and refunds so far move
 * too. The other check is closed (cancelled, "merged into #…", `merged_into`), which frees its
 * table. Every row is written through records.ts in one transaction, so sync carries the merge
 * as it happened; no line is new, so nothing is printed or sent to a station again.
 */
export async function mergeChecks(trx: Executor, actor: Actor, ctx: OrderContext, intoId: string, fromId: string) {
  if (intoId === fromId) throw new ApiError('parameter_invalid', 'A check cannot be merged into itself.', 'from');
  // lock both in id order, so two merges crossing each other wait instead of deadlocking
  const [first, second] = [intoId, fromId].sort();
  const locked = new Map([[first!, await openOrder(trx, actor, first!)], [second!, await openOrder(trx, actor, second!)]]);
  const into = locked.get(intoId)!;
  const from = locked.get(fromId)!;
  for (const [o, field] of [[into, 'id'], [from, 'from']] as const) {
    if (o.order.type !== 'dine_in') throw new ApiError('parameter_invalid', `Order '${o.order.id}' is ${o.order.type}: only checks at tables are merged.`, field);
    if (o.order.status === 'draft') throw new ApiError('order_not_open', `Order '${o.order.id}' is a draft: place it first.`, field);
  }
  if (into.order.currency !== from.order.currency || into.order.prices_include_tax !== from.order.prices_include_tax) {
    throw new ApiError('state_conflict', 'These checks are priced differently (currency or tax included); they cannot be summed as one.', 'from');
  }

  const now = seconds(actor);
  let idx = into.items.reduce((m, i) => Math.max(m, i.idx), -1) + 1;
  const seatOffset = into.items.reduce((m, i) => Math.max(m, i.seat ?? 0), 0);
  const moved: OrderItemRow[] = [];
  for (const line of [...from.items].sort((a, b) => a.idx - b.idx)) {
    moved.push((await updateRecord(trx, 'order_items', line, { order_id: intoId, idx: idx++, seat: line.seat === null ? null : line.seat + seatOffset, updated: now }))!);
  }
  const payments = await trx.selectFrom('payments').select(['id', 'restaurant_id']).where('order_id', '=', fromId).execute();
  for (const p of payments) await updateRecord(trx, 'payments', p, { order_id: intoId });
  const refunds = await trx.selectFrom('payment_refunds').select(['id', 'restaurant_id']).where('order_id', '=', fromId).execute();
  for (const r of refunds) await updateRecord(trx, 'payment_refunds', r, { order_id: intoId });

  // the closed check keeps nothing: its lines and money are now the other's
  const emptied = { check_discount_amount: 0, tip_amount: 0, delivery_fee: 0, prices_include_tax: from.order.prices_include_tax };
  const closed = (await updateRecord(trx, 'orders', from.order, {
    status: 'cancelled',
    cancelled_at: now,
    cancel_reason: `merged into #${into.order.order_number}`,
    merged_into: intoId,
    ...emptied,
    ...totalsOf([], emptied),
    amount_paid: 0,
    amount_returned: 0,
    updated: now,
  }))!;
  await recordOrderChange(trx, ctx, {
    actor, order: closed, items: [], previousStatus: from.order.status, newItemIds: [], changedItemIds: [], event: 'order.cancelled',
    detail: { merged_into: intoId },
  });

  // the lines stand in the order they were rung in, the other table's among them (positions.ts)
  const items = (await placeLines(trx, intoId, now, [...into.items, ...moved])) ?? [...into.items, ...moved];
  const order = await rebill(trx, actor, into.order, items, {
    check_discount_amount: into.order.check_discount_amount + from.order.check_discount_amount,
    discount_reason: into.order.discount_reason ?? from.order.discount_reason,
    discount_approved_by: into.order.discount_reason ? into.order.discount_approved_by : from.order.discount_approved_by,
    tip_amount: into.order.tip_amount + from.order.tip_amount,
    // the two parties now sit at one check
    covers: into.order.covers === null && from.order.covers === null ? null : (into.order.covers ?? 0) + (from.order.covers ?? 0),
    ...(await countPaid(trx, intoId)),
  });
  return recordOrderChange(trx, ctx, {
    actor, order, items, previousStatus: into.order.status, newItemIds: [], changedItemIds: [], event: 'order.merged',
    detail: { from: fromId, items: items.filter((l) => moved.some((m) => m.id === l.id)).map((m) => m.idx), payments: payments.map((p) => p.id) },
  });
}
