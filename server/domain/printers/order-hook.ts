import { sharedRead, type OrderChange, type OrderHook } from '../orders/hooks.ts';
import { getSettings } from '../restaurants/restaurants.ts';
import { seconds } from '../time.ts';
import { arrivalOf, LATE_AFTER_SECONDS, lateMark } from './catch-up.ts';
import type { Executor } from '../../db/records.ts';
import type { OrderItemRow } from '../../db/tables/order-items.table.ts';
import { hasActivePrinter } from './printers.ts';
import { enqueueTakenBack } from './taken-back.ts';
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
 * Sandbox orders produce the same jobs, recorded as skipped. Lines and receipts another node
 * made arrive by sync (`remote`): see enqueueArrived; its voids and cancels, enqueueTakenBack.
 * A cloud queues nothing.
 * The printers feature declares it.
 */
export const printHook: OrderHook = {
  name: 'printers-tickets',
  async change(trx, change) {
    const { actor, order, items, previousStatus, newItemIds, firedItemIds, voidedItemIds } = change;
    // The printers are on the venue's network and only a hub dispatches: a cloud queues nothing
    // (its jobs would wait for ever, looking like tickets on their way). Its lines print on the
    // hub when sync brings them there (enqueueArrived).
    if (change.node === 'cloud') return;
    // tickets and receipts go to active printers only: a batch of orders changed together (sync)
    // asks once whether there is one, instead of reading stations and printers for each order
    if (change.shared && !(await sharedRead(change, `printers:${order.restaurant_id}`, () => hasActivePrinter(trx, order.restaurant_id)))) return;
    if (sentToKitchen(order.status)) {
      // held courses wait for their fire; voided lines are never cooked
      const sendable = (i: (typeof items)[number]) => i.held !== 1 && !i.voided_at;
      let lines: OrderItemRow[] = [];
      if (!sentToKitchen(previousStatus)) lines = items.filter(sendable);
      else if (newItemIds.length > 0 || firedItemIds?.length) {
        const fresh = new Set([...newItemIds, ...(firedItemIds ?? [])]);
        lines = items.filter((i) => fresh.has(i.id) && sendable(i));
      }
      if (change.remote) await enqueueArrived(trx, change, lines);
      else if (lines.length) await enqueueKitchenTickets(trx, actor, order, lines);
      if (!change.remote && voidedItemIds?.length) {
        const voided = new Set(voidedItemIds);
        // only what a station already had needs taking back
        await enqueueVoidTickets(trx, actor, order, items.filter((i) => voided.has(i.id) && i.sent_to_kitchen_at !== null));
      }
    }
    // voided or cancelled on the other node, or cancelled here: what this hub printed of it is taken back
    if (change.remote) await enqueueTakenBack(trx, change, voidedItemIds ?? []);
    else if (order.status === 'cancelled' && previousStatus !== 'cancelled') await enqueueTakenBack(trx, change, []);
    // a check the other node closed while this hub was away: the guest left with it
    const lateReceipt = change.remote && order.completed_at !== null && seconds(actor) - Number(order.completed_at) > LATE_AFTER_SECONDS;
    if (order.status === 'completed' && previousStatus !== 'completed' && !lateReceipt) {
      await enqueueReceipts(trx, actor, order, items, { live: order.livemode === 1, required: false, unlessPrinted: true });
    }
  },
};

/**
 * Lines the other node sent to the kitchen, reaching this hub by sync (catch-up.ts): those that
 * came at once print as ever; those the hub missed print marked LATE with the time they were
 * rung in (one ticket per station and time), unless bumped or voided meanwhile, or the venue
 * turned that off (`print_missed_tickets`). A line prints here once: sync brings its insert
 * once (its op id), and a later change of it is not new.
 */
async function enqueueArrived(trx: Executor, change: OrderChange, lines: OrderItemRow[]): Promise<void> {
  if (lines.length === 0) return;
  const { actor, order } = change;
  const settings = await sharedRead(change, `settings:${order.restaurant_id}`, () => getSettings(trx, order.restaurant_id));
  const now = seconds(actor);
  const onTime: OrderItemRow[] = [];
  const late = new Map<string, OrderItemRow[]>();
  for (const line of lines) {
    const a = arrivalOf(line, order, now, settings.print_missed_tickets);
    if (!a.print) continue;
    if (!a.late) onTime.push(line);
    else {
      const mark = lateMark(a.rungIn, settings.timezone);
      late.set(mark, [...(late.get(mark) ?? []), line]);
    }
  }
  if (onTime.length) await enqueueKitchenTickets(trx, actor, order, onTime);
  for (const [mark, group] of late) await enqueueKitchenTickets(trx, actor, order, group, [mark]);
}
