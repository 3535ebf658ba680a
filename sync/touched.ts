import type { OrderRow } from '../server/db/tables/orders.table.ts';
import type { WireChange } from './protocol.ts';

/**
 * What a batch changed that local derived state (tickets, roll-ups, webhooks, conflicts)
 * follows. Each table fills in its part (its `touched` rule in merge-rules.ts); the features'
 * remote-batch hooks read it after the batch (sync/derived.ts).
 */
export interface Touched {
  orders: Map<string, OrderNote>;
  /** checks a line moved into or out of: their lines are put in their places again */
  placed: Set<string>;
  /** events new here */
  events: Record<string, unknown>[];
  reservations: Set<string>;
  /** customers new or changed here (the same guest made on both sides is merged) */
  customers: Set<string>;
  /** rows of a customer (key) moved to another (value) by the other side */
  repointed: Map<string, string>;
  /** orders whose payments or refunds came in this batch */
  paid: Set<string>;
  /** a status one side set that the merge rules overruled (a cancel against a completion) */
  overruled: { table: string; id: string; kept: string; overruled: string; origin: string }[];
  /** changes this database's unique rules refused (kept whole in the conflict, for a person) */
  unapplied: WireChange[];
}

/** An order a batch touched, itself or through its lines. */
export interface OrderNote {
  previousStatus: OrderRow['status'] | null | undefined;
  newItemIds: string[];
  changedItemIds: string[];
  /** lines of a held course the other side fired (sent to the kitchen) */
  firedItemIds: string[];
  /** lines this node had unvoided that the other side voided (a station may hold their ticket) */
  voidedItemIds: string[];
  livemode: number | null;
}

export const nothingTouched = (): Touched => ({
  orders: new Map(),
  placed: new Set(),
  events: [],
  reservations: new Set(),
  customers: new Set(),
  repointed: new Map(),
  paid: new Set(),
  overruled: [],
  unapplied: [],
});

export function noteOrder(t: Touched, orderId: string): OrderNote {
  let note = t.orders.get(orderId);
  if (!note) t.orders.set(orderId, (note = { previousStatus: undefined, newItemIds: [], changedItemIds: [], firedItemIds: [], voidedItemIds: [], livemode: null }));
  return note;
}
