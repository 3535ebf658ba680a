import type { Hooks } from '../server/domain/orders/hooks.ts';

/** Whom a batch of remote changes is applied for, and when (read by apply.ts and derived.ts). */
export interface ApplyContext {
  restaurantId: string;
  role: 'hub' | 'cloud';
  /** ms, for derived writes (event fan-out, hooks) */
  now: number;
  /** the node's order and event hooks (its registry's): what follows an order applied here */
  hooks: Hooks;
  /**
   * The changes are a repair (sync/repair.ts): rows of the other side with their clocks, not
   * entries of its log. What they change is logged as this node's own entries (new op ids, its
   * positions), stamped with the clocks they carry, and so travels back as a no-op.
   */
  repair?: boolean;
}
