import { onOrderChange, type OrderRow } from '../orders/hooks.ts';
import { enqueueKitchenTickets, enqueueReceipts } from './jobs.ts';

/** Statuses at which the kitchen has the order: tickets for it are out. */
const sentToKitchen = (s: OrderRow['status'] | null): boolean => s !== null && s !== 'draft' && s !== 'cancelled';

/**
 * Kitchen tickets and receipts follow order changes, in the order command's transaction:
 * - the order reaches `placed` (or any later status) from nothing or draft: every line so
 *   far goes out, one ticket per printer of each station with that station's lines;
 * - lines appended to an order the kitchen already has (a later round): only those lines;
 * - the order completes: a receipt on every receipt printer.
 * Sandbox orders produce the same jobs, recorded as skipped.
 */
let registered = false;

/** Hooks are process-wide; many servers in one process (tests) must register them once. */
export function registerPrintHooks(): void {
  if (registered) return;
  registered = true;
  onOrderChange(async (trx, change) => {
    const { actor, order, items, previousStatus, newItemIds } = change;
    if (sentToKitchen(order.status)) {
      if (!sentToKitchen(previousStatus)) await enqueueKitchenTickets(trx, actor, order, items);
      else if (newItemIds.length > 0) {
        const fresh = new Set(newItemIds);
        await enqueueKitchenTickets(trx, actor, order, items.filter((i) => fresh.has(i.id)));
      }
    }
    if (order.status === 'completed' && previousStatus !== 'completed') {
      await enqueueReceipts(trx, actor, order, items, { live: order.livemode === 1, required: false });
    }
  });
}
