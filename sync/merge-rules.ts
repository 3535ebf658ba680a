import type { RecordTable } from '../server/db/schema.ts';
import type { ChangeCheck, SlotBatch, Slots, TouchRule } from './table-behaviour.ts';
import { linePositions, orderItemsTouched } from './tables/order-items.ts';
import { orderNumbers, ordersTouched } from './tables/orders.ts';
import { checkSlugsOnCloud } from './tables/restaurants.ts';
import { customersTouched, namesCustomer, reservationsTouched } from './tables/customers.ts';
import { moneyTouched } from './tables/money.ts';
import { eventsTouched } from './tables/events.ts';

/**
 * How two nodes' changes to the same record merge, and what else a table does when another
 * node's change reaches it: the one table of rules, written out in sync/README.md ("Merge
 * rules"). apply.ts knows no table by name: what differs between tables is said here. Everything
 * not named here is a free field: last writer wins per field, by hybrid logical clock
 * (server/db/hlc.ts).
 *
 * - lifecycle: the status column moves forward only; of two statuses the one ranked later
 *   wins whatever the clocks say, and the columns that belong to a status (`follows`) come
 *   from the side whose status won. `mergedInto`: the column naming the row this one was
 *   merged into; a row merged away stays merged, whatever its status says.
 * - stickyOnce: a soft delete (revoked, disabled) once set stays set, against any edit.
 * - appendOnly: rows only ever inserted (and their lifecycle moved): never re-written.
 * - local: columns each node keeps for itself (bookkeeping written outside the change log);
 *   they are neither merged nor compared by the audit.
 * - owner: the column naming the row's restaurant (`restaurant_id` unless said); `undeletable`:
 *   no batch may remove such a row; `check`: the table's own refusals, before anything is written.
 * - lockFirst: read (and locked, on PostgreSQL) before the batch's other tables, as commands lock them.
 * - slots (onInsertClash): a place unique among the rows that two nodes hand out apart, and
 *   what a new or moved row does when it is taken here (sync/table-behaviour.ts).
 * - touched: what the table notes of a change for the features that follow a batch
 *   (sync/touched.ts, their `remoteBatchHooks`).
 * A hard delete (a tombstone in the change log) wins over every edit, earlier or later.
 */
export interface TableRule {
  lifecycle?: { column: string; order: readonly string[]; follows: readonly string[]; mergedInto?: string };
  stickyOnce?: readonly string[];
  appendOnly?: boolean;
  local?: readonly string[];
  owner?: string;
  /** what a row is, for the refusal of a batch that removes one ('a restaurant') */
  undeletable?: string;
  check?: ChangeCheck;
  lockFirst?: boolean;
  slots?: (batch: SlotBatch) => Slots;
  touched?: TouchRule;
}

export const MERGE_RULES: Readonly<Record<string, TableRule>> = {
  // a restaurant is its own owner; no command removes one: a change that does is forged or
  // broken, and applied it would leave the venue's orders without their restaurant
  restaurants: { owner: 'id', undeletable: 'a restaurant', check: checkSlugsOnCloud },
  customers: { touched: customersTouched },
  orders: {
    // completed beats cancelled: a completed order was served and paid on one side; a
    // cancel made apart from it is overruled (and listed as a conflict for the owner)
    lifecycle: {
      column: 'status',
      order: ['draft', 'placed', 'preparing', 'ready', 'served', 'cancelled', 'completed'],
      follows: ['completed_at', 'cancelled_at', 'cancel_reason', 'merged_into', 'placed_at'],
      mergedInto: 'merged_into',
    },
    // checks before their lines and money, as every command locks them
    lockFirst: true,
    slots: orderNumbers,
    touched: ordersTouched,
  },
  order_items: {
    appendOnly: true,
    // a void made on one side stands against any edit made apart from it (the line is not cooked or billed)
    stickyOnce: ['voided_at'],
    lifecycle: { column: 'status', order: ['pending', 'preparing', 'ready', 'served'], follows: ['ready_at'] },
    slots: linePositions,
    touched: orderItemsTouched,
  },
  reservations: {
    // a guest who arrived beats a cancel or no-show recorded apart from it
    lifecycle: {
      column: 'status',
      order: ['pending', 'confirmed', 'no_show', 'cancelled', 'arrived', 'seated', 'completed'],
      follows: ['arrived_at', 'seated_at', 'completed_at', 'cancelled_at'],
    },
    touched: reservationsTouched,
  },
  waitlist_entries: {
    lifecycle: {
      column: 'status',
      order: ['waiting', 'notified', 'expired', 'cancelled', 'seated'],
      follows: ['notified_at', 'notified_channel', 'seated_at', 'table_id', 'reservation_id', 'cancelled_at', 'cancelled_by', 'expired_at'],
    },
    touched: namesCustomer,
  },
  deliveries: {
    lifecycle: {
      column: 'status',
      order: ['awaiting_dispatch', 'dispatched', 'picked_up', 'cancelled', 'delivered'],
      follows: ['dispatched_at', 'picked_up_at', 'delivered_at'],
    },
  },
  events: { appendOnly: true, touched: eventsTouched },
  feedback: { appendOnly: true },
  api_keys: { stickyOnce: ['revoked_at'], local: ['last_used_at'] },
  qr_codes: { stickyOnce: ['disabled_at'] },
  // a person settling a conflict: written once, never edited (both sides may settle one apart)
  sync_resolutions: { appendOnly: true },
  // money taken or given back is never edited: a payment made on each side while apart is
  // kept whole, both of them (an overpayment is listed for a person, sync/derived.ts)
  payments: { appendOnly: true, touched: moneyTouched },
  payment_refunds: { appendOnly: true, touched: moneyTouched },
  cash_counts: { appendOnly: true },
};

/** Tables sync carries: every replicated record table (server/db/schema.ts RecordTable). */
export const SYNCED_TABLES = [
  'restaurants',
  'api_keys',
  'users',
  'stations',
  'menu_categories',
  'menu_items',
  'modifier_groups',
  'tables',
  'customers',
  'orders',
  'order_items',
  'deliveries',
  'events',
  'reservations',
  'waitlist_entries',
  'feedback',
  'webhook_endpoints',
  'printers',
  'qr_codes',
  'shifts',
  'inventory_items',
  'sync_resolutions',
  'payments',
  'payment_refunds',
  'cash_counts',
] as const;

export type SyncedTable = (typeof SYNCED_TABLES)[number];

export const isSyncedTable = (t: string): t is SyncedTable => (SYNCED_TABLES as readonly string[]).includes(t);

/** rank of a status in its lifecycle; -1 for one the table does not know */
export function rankOf(rule: TableRule['lifecycle'], status: unknown): number {
  return rule ? rule.order.indexOf(String(status)) : -1;
}

/** A replicated table nobody named above fails to compile here, so sync never skips one. */
type Unnamed = Exclude<RecordTable, SyncedTable>;
export const everyRecordTableSynced: [Unnamed] extends [never] ? true : Unnamed = true;
