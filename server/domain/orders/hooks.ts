import type { Executor } from '../../db/records.ts';
import type { Actor } from '../../services.ts';
import type { OrderRow } from '../../db/tables/orders.table.ts';
import type { OrderItemRow } from '../../db/tables/order-items.table.ts';
import type { EventHooks } from '../events/emit.ts';

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
  /**
   * The change was made on the other node and applied here by sync (or its repair): its lines
   * were rung in there, maybe while this node was stopped or cut off (printers: catch-up.ts).
   */
  remote?: boolean;
  /** the role of the node the hooks run on; absent: a hub (the CLI's demo, tests' fixtures) */
  node?: 'hub' | 'cloud';
}

/** A read the hooks of one batch of order changes make once (see OrderChange.shared). */
export function sharedRead<T>(change: OrderChange, key: string, read: () => Promise<T>): Promise<T> {
  if (!change.shared) return read();
  let p = change.shared.get(key) as Promise<T> | undefined;
  if (!p) change.shared.set(key, (p = read()));
  return p;
}

/**
 * A feature that must act on order changes in the same transaction (kitchen tickets,
 * roll-ups) declares one of these (server/features: `orderHooks`); the server's registry hands
 * the list to every order command through its OrderContext, and to sync through its ApplyContext.
 */
export interface OrderHook {
  name: string;
  change(trx: Executor, change: OrderChange): Promise<void>;
  /** once after the hooks of a batch of order changes: what the hook held back for the batch is written */
  batchEnd?(trx: Executor, shared: Map<string, Promise<unknown>>): Promise<void>;
}

export async function runOrderHooks(trx: Executor, hooks: readonly OrderHook[], change: OrderChange): Promise<void> {
  for (const hook of hooks) await hook.change(trx, change);
}

/**
 * The hooks of many orders changed together (sync applies another node's batch), in one
 * transaction: they share reads and may write what they add up once for the whole batch.
 */
export async function runOrderHooksBatch(trx: Executor, hooks: readonly OrderHook[], changes: OrderChange[]): Promise<void> {
  const shared = new Map<string, Promise<unknown>>();
  for (const change of changes) await runOrderHooks(trx, hooks, { ...change, shared });
  for (const hook of hooks) await hook.batchEnd?.(trx, shared);
}

/** The in-transaction hooks of one server (its registry's), handed to the commands that run them. */
export interface Hooks extends EventHooks {
  orders: readonly OrderHook[];
}
