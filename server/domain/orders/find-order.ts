import type { Executor } from '../../db/records.ts';
import type { Actor } from '../../services.ts';
import { modeOf } from '../modes.ts';
import { loadOrder } from './load.ts';


/**
 * An order as one key sees it: of the key's restaurant and of its mode. Sandbox orders stay
 * off live screens (no cook makes a test order) and live orders out of sandbox integrations;
 * the other mode's order is simply not found.
 */
export async function findOrder(db: Executor, actor: Pick<Actor, 'restaurantId' | 'livemode'>, id: string, opts: { forUpdate?: boolean } = {}) {
  const found = await loadOrder(db, actor.restaurantId, id, opts);
  return found && found.order.livemode === modeOf(actor) ? found : undefined;
}
