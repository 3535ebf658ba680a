import type { Executor } from '../../db/records.ts';
import { updateRecord } from '../../db/records.ts';
import { ApiError, notFound } from '../../errors.ts';
import type { Actor } from '../../services.ts';
import { seconds } from '../time.ts';
import { findOrder } from './find-order.ts';
import { eventFor, recordOrderChange, type OrderContext } from './record-change.ts';
import { assertLineTransition, assertOrderTransition } from './state-machine.ts';
import { isBefore, lineRank, OPEN_STATUSES, statusFromLines, type LineStatus, type OrderStatus } from '../../model/orders.ts';
import type { OrderItemRow } from '../../db/tables/order-items.table.ts';
import type { OrderRow } from '../../db/tables/orders.table.ts';

/** The order about to be moved, locked for the move (see loadOrder). */
async function mustLoad(trx: Executor, actor: Actor, id: string) {
  const found = await findOrder(trx, actor, id, { forUpdate: true });
  if (!found) throw notFound('order', id);
  return found;
}

/** The order's timestamps a move to `to` sets (each only once). */
function stamps(order: OrderRow, to: OrderStatus, now: number): Partial<OrderRow> {
  const p: Partial<OrderRow> = {};
  if (to !== 'cancelled' && to !== 'draft' && order.placed_at === null) p.placed_at = now;
  if (to === 'completed') p.completed_at = now;
  if (to === 'cancelled') p.cancelled_at = now;
  return p;
}

/**
 * Lines follow a whole-order move where it says something about them: once placed they
 * are visible to the kitchen; an order ready (or served) has every line at least ready
 * (or served). Returns the changed lines.
 */
async function carryLines(trx: Executor, actor: Actor, items: OrderItemRow[], to: OrderStatus): Promise<OrderItemRow[]> {
  const now = seconds(actor);
  const target: LineStatus | null = to === 'ready' ? 'ready' : to === 'served' || to === 'completed' ? 'served' : null;
  const changed: OrderItemRow[] = [];
  for (const [i, line] of items.entries()) {
    const patch: Partial<OrderItemRow> = {};
    // a held course waits to be fired; a voided line is never sent
    if (to !== 'cancelled' && line.sent_to_kitchen_at === null && line.held !== 1 && !line.voided_at) patch.sent_to_kitchen_at = now;
    if (target && lineRank(line.status) < lineRank(target)) {
      patch.status = target;
      if (line.ready_at === null) patch.ready_at = now;
    }
    if (Object.keys(patch).length === 0) continue;
    const saved = (await updateRecord(trx, 'order_items', line, { ...patch, updated: now }))!;
    items[i] = saved;
    if (patch.status) changed.push(saved);
  }
  return changed;
}

/**
 * Asked before a cancel that takes money off the books (lines already at the stations, or
 * money taken): the approving manager's id, null for a key; throws approval_required.
 */
export type Approve = () => Promise<string | null>;

/** A cancel is a void of every line: with lines at the stations or money taken, a manager approves it, as a void. */
async function cancelApproval(current: { order: OrderRow; items: OrderItemRow[] }, approve: Approve | undefined): Promise<string | null> {
  const sent = current.items.some((l) => l.sent_to_kitchen_at !== null && !l.voided_at);
  if (!sent && Number(current.order.amount_paid) <= 0) return null;
  if (!approve) {
    throw new ApiError('approval_required', 'This check has lines at the stations or money taken: a manager must approve cancelling it.', 'manager_pin');
  }
  return approve();
}

async function move(
  trx: Executor,
  actor: Actor,
  ctx: OrderContext,
  current: { order: OrderRow; items: OrderItemRow[] },
  to: OrderStatus,
  cancelReason: string | null,
  approve?: Approve,
) {
  const { order } = current;
  assertOrderTransition(order.status, to);
  const approvedBy = to === 'cancelled' ? await cancelApproval(current, approve) : null;
  const now = seconds(actor);
  const items = [...current.items];
  const changed = await carryLines(trx, actor, items, to);
  const saved = (await updateRecord(trx, 'orders', order, {
    status: to,
    ...stamps(order, to, now),
    ...(to === 'cancelled' ? { cancel_reason: cancelReason, cancel_approved_by: approvedBy } : {}),
    updated: now,
  }))!;
  return recordOrderChange(trx, ctx, {
    actor,
    order: saved,
    items,
    previousStatus: order.status,
    newItemIds: [],
    changedItemIds: changed.map((c) => c.id),
    event: eventFor(to),
  });
}

/** PATCH status: any move the state machine allows; a cancel needs its reason. */
export async function changeOrderStatus(
  trx: Executor,
  actor: Actor,
  ctx: OrderContext,
  id: string,
  input: { status: OrderStatus; cancel_reason?: string | null },
  approve?: Approve,
) {
  if (input.status === 'cancelled' && !input.cancel_reason) {
    throw new ApiError('parameter_missing', 'cancel_reason is required when cancelling an order.', 'cancel_reason');
  }
  const current = await mustLoad(trx, actor, id);
  return move(trx, actor, ctx, current, input.status, input.cancel_reason ?? null, approve);
}

/** The cancel route: idempotent, a second cancel returns the order as it is and emits nothing. */
export async function cancelOrder(trx: Executor, actor: Actor, ctx: OrderContext, id: string, reason: string | null, approve?: Approve) {
  const current = await mustLoad(trx, actor, id);
  if (current.order.status === 'cancelled') return current;
  return move(trx, actor, ctx, current, 'cancelled', reason, approve);
}

/**
 * One line moves (a station bumps it). The order then follows its lines, forward only:
 * the first line started → preparing, every line at least ready → ready, every line
 * served → served.
 */
export async function changeLineStatus(
  trx: Executor,
  actor: Actor,
  ctx: OrderContext,
  id: string,
  index: number,
  to: LineStatus,
  /** the station asking; a station advances only its own lines */
  station?: string,
) {
  const current = await mustLoad(trx, actor, id);
  const { order } = current;
  const line = current.items.find((i) => i.idx === index);
  if (!line) throw notFound('order line', String(index), 'itemIndex');
  if (station !== undefined && line.station !== station) {
    throw new ApiError('state_conflict', `Line ${index} is cooked at '${line.station}', not at '${station}'.`, 'station');
  }
  if (!OPEN_STATUSES.includes(order.status)) {
    throw new ApiError('order_not_open', `This order is '${order.status}'; its lines can no longer move.`, 'status');
  }
  assertLineTransition(index, line.status, to);
  const now = seconds(actor);
  const saved = (await updateRecord(trx, 'order_items', line, {
    status: to,
    ...(line.sent_to_kitchen_at === null ? { sent_to_kitchen_at: now } : {}),
    ...(lineRank(to) >= lineRank('ready') && line.ready_at === null ? { ready_at: now } : {}),
    updated: now,
  }))!;
  const items = current.items.map((i) => (i.id === saved.id ? saved : i));
  const wanted = statusFromLines(items);
  const next = wanted && isBefore(order.status, wanted) ? wanted : order.status;
  const savedOrder = (await updateRecord(trx, 'orders', order, { status: next, updated: now }))!;
  return recordOrderChange(trx, ctx, {
    actor,
    order: savedOrder,
    items,
    previousStatus: order.status,
    newItemIds: [],
    changedItemIds: [saved.id],
    event: 'order.updated',
  });
}
