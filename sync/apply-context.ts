import type { Executor } from '../server/db/records.ts';
import type { Hooks } from '../server/domain/orders/hooks.ts';
import type { Touched } from './touched.ts';

/** Whom a batch of remote changes is applied for, and when (read by apply.ts and derived.ts). */
export interface ApplyContext {
  restaurantId: string;
  role: 'hub' | 'cloud';
  /** ms, for derived writes (event fan-out, hooks) */
  now: number;
  /** the node's hooks (its registry's): what follows an order, an event, a whole batch applied here */
  hooks: SyncHooks;
  /**
   * The changes are a repair (sync/repair.ts): rows of the other side with their clocks, not
   * entries of its log. What they change is logged as this node's own entries (new op ids, its
   * positions), stamped with the clocks they carry, and so travels back as a no-op.
   */
  repair?: boolean;
}

/**
 * What a feature does once another node's batch is applied, in its transaction: what a local
 * command would have done beside its rows (a check's bill made again, its tickets, a double
 * booking listed). A feature declares these (`remoteBatchHooks`); they run in the features' order.
 */
export interface RemoteBatchHook {
  name: string;
  afterBatch(trx: Executor, ctx: ApplyContext, touched: Touched): Promise<void>;
}

/** A server's in-transaction hooks, with those that follow a sync batch. */
export interface SyncHooks extends Hooks {
  remoteBatch: readonly RemoteBatchHook[];
}
