import { sharedRead, type OrderHook } from '../orders/hooks.ts';
import { hasActivePrinter } from './printers.ts';
import { enqueueKitchenTickets, enqueueReceipts, enqueueVoidTickets } from './jobs.ts';
import type { OrderRow } from '../../db/tables/orders.table.ts';

/** Statuses at which the kitchen has the order: tickets for it are out. */
const sentToKitchen = (s: OrderRow['status'] | null): boolean => s !== null && s !== 'draft' && s !== 'cancelled';

/**
 * Kitchen tickets and receipts follow order changes, in the order command's transaction:
 * - the order reaches `placed` (or any later status) from nothing or draft: every line so
 *   far goes out, one ticket per printer of each station with that station's lines;
 * - lines appended to an order the kitchen already has (a later round): only those lines;
 * - the order completes: a receipt on every receipt printer that does not have the same
 *   receipt already (printed on request just before: "Print receipt", then "Mark completed").
 * Sandbox orders produce the same jobs, recorded as skipped.
 * The printers feature declares it.
 */
export const printHook: OrderHook = {
  name: 'printers-tickets',
  async change(trx, change) {
    const { actor, order, items, previousStatus, newItemIds, firedItemIds, voidedItemIds } = change;
    // tickets and receipts go to active printers only: a batch of orders changed together (sync)
    // asks once whether there is one, instead of reading stations and printers for each order
    if (change.shared && !(await sharedRead(change, `printers:${order.restaurant_id}`, () => hasActivePrinter(trx, order.restaurant_id)))) return;
    if (sentToKitchen(order.status)) {
      // held courses wait for their fire; voided lines are never cooked
      const sendable = (i: (typeof items)[number]) => i.held !== 1 && !i.voided_at;
      if (!sentToKitchen(previousStatus)) await enqueueKitchenTickets(trx, actor, order, items.filter(sendable));
      else if (newItemIds.length > 0 || firedItemIds?.length) {
        const fresh = new Set([...newItemIds, ...(firedItemIds ?? [])]);
        await enqueueKitchenTickets(trx, actor, order, items.filter((i) => fresh.has(i.id) && sendable(i)));
      }
      if (voidedItemIds?.length) {
        const voided = new Set(voidedItemIds);
        // only what a station already had needs taking back
        await enqueueVoidTickets(trx, actor, order, items.filter((i) => voided.has(i.id) && i.sent_to_kitchen_at !== null));
      }
    }
    if (order.status === 'completed' && previousStatus !== 'completed') {
      await enqueueReceipts(trx, actor, order, items, { live: order.livemode === 1, required: false, unlessPrinted: true });
    }
  },
};
