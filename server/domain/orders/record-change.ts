import { presentOrder, type Order } from '../../presenters/orders.ts';
import type { Executor } from '../../db/records.ts';
import { emitEvent } from '../events/emit.ts';
import { syncDelivery } from './delivery.ts';
import { runOrderHooks, type Hooks, type OrderChange } from './hooks.ts';
import type { OrderItemRow } from '../../db/tables/order-items.table.ts';
import type { OrderRow } from '../../db/tables/orders.table.ts';

/** How this node makes and routes orders; the routes fill it from the server's config. */
export interface OrderContext {
  /** '' on the hub, see order-number.ts */
  nodeTag: string;
  /** the delivery fleet that takes delivery orders, or null when couriers are not dispatched */
  fleet: string | null;
  /** the server's order and event hooks (its registry's): tickets, roll-ups, webhooks */
  hooks: Hooks;
  /** the server's role: a cloud prints nothing (the printers are on the venue's network); absent: a hub */
  role?: 'hub' | 'cloud';
}

export type OrderEventType =
  | 'order.created'
  | 'order.updated'
  | 'order.completed'
  | 'order.cancelled'
  // service at the table (server/domain/orders/service.ts)
  | 'order.course_fired'
  | 'order.item_voided'
  | 'order.discounted'
  | 'order.transferred'
  | 'order.items_moved'
  | 'order.merged';

/**
 * Everything that must happen in the transaction of any order change: the courier side
 * of a delivery, the event with the order as it now is, and the hooks of other features.
 */
export async function recordOrderChange(
  trx: Executor,
  ctx: OrderContext,
  change: Omit<OrderChange, 'items'> & { items: OrderItemRow[]; event: OrderEventType; detail?: Record<string, unknown> },
): Promise<{ order: OrderRow; items: OrderItemRow[]; presented: Order }> {
  const { event, detail: _detail, ...rest } = change;
  await syncDelivery(trx, change.actor, ctx.fleet, change.order, change.previousStatus);
  const extra = event === 'order.cancelled' ? { cancel_reason: change.order.cancel_reason } : {};
  // Presented once: the event carries it (serialised at once) and the route answers with it.
  const presented = presentOrder(change.order, change.items);
  await emitEvent(trx, ctx.hooks, change.actor, event, presented, { ...extra, ...change.detail });
  await runOrderHooks(trx, ctx.hooks.orders, { ...rest, node: ctx.role ?? 'hub' });
  return { order: change.order, items: change.items, presented };
}

/** The event a status move emits. */
export function eventFor(status: OrderRow['status']): OrderEventType {
  if (status === 'completed') return 'order.completed';
  if (status === 'cancelled') return 'order.cancelled';
  return 'order.updated';
}
