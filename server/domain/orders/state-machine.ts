import { ApiError } from '../../errors.ts';
import type { OrderItemRow } from '../../db/tables/order-items.table.ts';
import type { OrderRow } from '../../db/tables/orders.table.ts';

export type OrderStatus = OrderRow['status'];
export type LineStatus = OrderItemRow['status'];

/** How an order reaches the guest: the one list (API, presenters and analytics read it). */
export const ORDER_TYPES = ['dine_in', 'takeout', 'delivery'] as const;

export const ORDER_STATUSES = ['draft', 'placed', 'preparing', 'ready', 'served', 'completed', 'cancelled'] as const;
export const LINE_STATUSES = ['pending', 'preparing', 'ready', 'served'] as const;

/**
 * Every move an order may make, in one place. Forward moves may skip steps (a takeout goes
 * ready → completed); nothing moves backwards; cancelling is possible from every state
 * before completed; completed and cancelled are final. `draft` is only ever a start.
 */
export const ORDER_TRANSITIONS: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  draft: ['placed', 'preparing', 'ready', 'served', 'completed', 'cancelled'],
  placed: ['preparing', 'ready', 'served', 'completed', 'cancelled'],
  preparing: ['ready', 'served', 'completed', 'cancelled'],
  ready: ['served', 'completed', 'cancelled'],
  served: ['completed', 'cancelled'],
  completed: [],
  cancelled: [],
};

/** A line only moves forward too; a station may bump a line straight to ready. */
export const LINE_TRANSITIONS: Readonly<Record<LineStatus, readonly LineStatus[]>> = {
  pending: ['preparing', 'ready', 'served'],
  preparing: ['ready', 'served'],
  ready: ['served'],
  served: [],
};

/** Orders whose lines the kitchen and the floor may still move (and a guest may add to). */
export const OPEN_STATUSES: readonly OrderStatus[] = ['placed', 'preparing', 'ready', 'served'];

export function assertOrderTransition(from: OrderStatus, to: OrderStatus): void {
  if (!ORDER_TRANSITIONS[from].includes(to)) {
    throw new ApiError(
      'invalid_transition',
      `This order is '${from}' and cannot move to '${to}'` +
        (ORDER_TRANSITIONS[from].length ? `; allowed: ${ORDER_TRANSITIONS[from].join(', ')}.` : '; it is final.'),
      'status',
    );
  }
}

export function assertLineTransition(index: number, from: LineStatus, to: LineStatus): void {
  if (!LINE_TRANSITIONS[from].includes(to)) {
    throw new ApiError(
      'invalid_transition',
      `Line ${index} is '${from}' and cannot move to '${to}'` +
        (LINE_TRANSITIONS[from].length ? `; allowed: ${LINE_TRANSITIONS[from].join(', ')}.` : '; it is final.'),
      'status',
    );
  }
}

const RANK: Record<OrderStatus, number> = { draft: 0, placed: 1, preparing: 2, ready: 3, served: 4, completed: 5, cancelled: 6 };
const LINE_RANK: Record<LineStatus, number> = { pending: 0, preparing: 1, ready: 2, served: 3 };

export const isBefore = (a: OrderStatus, b: OrderStatus) => RANK[a] < RANK[b];
export const lineRank = (s: LineStatus) => LINE_RANK[s];

/**
 * The order status its lines call for: all served → served; all at least ready → ready;
 * any line started → preparing; else null (the lines ask for nothing). The caller only
 * applies it when it is a forward move, so a new round never drags an order backwards.
 */
export function statusFromLines(all: { status: LineStatus; voided_at?: number | null }[]): OrderStatus | null {
  // a voided line is cooked by nobody: it holds nothing back
  const lines = all.filter((l) => !l.voided_at);
  if (lines.length === 0) return null;
  if (lines.every((l) => l.status === 'served')) return 'served';
  if (lines.every((l) => LINE_RANK[l.status] >= LINE_RANK.ready)) return 'ready';
  if (lines.some((l) => l.status !== 'pending')) return 'preparing';
  return null;
}
