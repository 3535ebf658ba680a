/**
 * The order's vocabularies and state machines: the one list of each, which the tables' types,
 * the API's schemas, the presenters and the web (through app/web/api-types.ts) derive from.
 * Pure: no database, no HTTP, no errors (the domain's state-machine.ts refuses a bad move).
 */

/** How an order reaches the guest: the one list (API, presenters and analytics read it). */
export const ORDER_TYPES = ['dine_in', 'takeout', 'delivery'] as const;
export type OrderType = (typeof ORDER_TYPES)[number];

/** What a QR code orders: at the table, or to take away (a QR order is never a delivery). */
export const QR_ORDER_TYPES = ['dine_in', 'takeout'] as const satisfies readonly OrderType[];
export type QrOrderType = (typeof QR_ORDER_TYPES)[number];

export const ORDER_STATUSES = ['draft', 'placed', 'preparing', 'ready', 'served', 'completed', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export const LINE_STATUSES = ['pending', 'preparing', 'ready', 'served'] as const;
export type LineStatus = (typeof LINE_STATUSES)[number];

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

// the lists are in lifecycle order, so a status's place in its list is its rank
export const isBefore = (a: OrderStatus, b: OrderStatus) => ORDER_STATUSES.indexOf(a) < ORDER_STATUSES.indexOf(b);
export const lineRank = (s: LineStatus) => LINE_STATUSES.indexOf(s);

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
  if (lines.every((l) => lineRank(l.status) >= lineRank('ready'))) return 'ready';
  if (lines.some((l) => l.status !== 'pending')) return 'preparing';
  return null;
}
