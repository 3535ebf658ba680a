import type { Executor } from '../../db/records.ts';
import type { Actor } from '../../services.ts';
import type { OrderRow } from '../../db/tables/orders.table.ts';
import type { OrderItemRow } from '../../db/tables/order-items.table.ts';

/** What happened to an order in one command, handed to every hook inside its transaction. */
export interface OrderChange {
  actor: Actor;
  /** the order after the change */
  order: OrderRow;
  /** all of its lines after the change, by idx */
  items: OrderItemRow[];
  /** status before the change; null when the order was just created */
  previousStatus: OrderRow['status'] | null;
  /** ids of lines added by this change (the first round on create, a later round on append) */
  newItemIds: string[];
  /** lines whose own status changed in this change */
  changedItemIds: string[];
  /** lines of a held course fired in this change: they go to their stations now */
  firedItemIds?: string[];
  /** lines voided in this change: a station that had one gets a void ticket */
  voidedItemIds?: string[];
  /**
   * Reads shared by the hooks of many orders changed together (sync applies a batch of
   * them): what a hook reads here (the restaurant's printers) is not written between them.
   */
  shared?: Map<string, Promise<unknown>>;
}

/** A read the hooks of one batch of order changes make once (see OrderChange.shared). */
export function sharedRead<T>(change: OrderChange, key: string, read: () => Promise<T>): Promise<T> {
  if (!change.shared) return read();
  let p = change.shared.get(key) as Promise<T> | undefined;
  if (!p) change.shared.set(key, (p = read()));
  return p;
}

export type OrderHook = (trx: Executor, change: OrderChange) => Promise<void>;

const hooks: OrderHook[] = [];

/**
 * Features that must act on order changes in the same transaction (kitchen tickets,
 * receipts, customer stats) register here; every order command calls runOrderHooks.
 */
export function onOrderChange(hook: OrderHook): void {
  hooks.push(hook);
}

export async function runOrderHooks(trx: Executor, change: OrderChange): Promise<void> {
  for (const hook of hooks) await hook(trx, change);
}

type BatchEnd = (trx: Executor, shared: Map<string, Promise<unknown>>) => Promise<void>;

const batchEnds: BatchEnd[] = [];

/** Called once after the hooks of a batch of order changes: what a hook held back for the batch is written. */
export function onOrderBatchEnd(end: BatchEnd): void {
  batchEnds.push(end);
}

/**
 * The hooks of many orders changed together (sync applies another node's batch), in one
 * transaction: they share reads and may write what they add up once for the whole batch.
 */
export async function runOrderHooksBatch(trx: Executor, changes: OrderChange[]): Promise<void> {
  const shared = new Map<string, Promise<unknown>>();
  for (const change of changes) await runOrderHooks(trx, { ...change, shared });
  for (const end of batchEnds) await end(trx, shared);
}
