import { sharedRead, type OrderChange } from '../orders/hooks.ts';
import { getSettings } from '../restaurants/restaurants.ts';
import { seconds } from '../time.ts';
import { lateVoidMark, takeBackOf } from './catch-up.ts';
import { enqueueVoidTickets } from './jobs.ts';
import type { Executor } from '../../db/records.ts';
import type { OrderItemRow } from '../../db/tables/order-items.table.ts';

/** How far back a ticket is looked for: a check is not open for a day, and the index is by time. */
const TICKETS_WITHIN_SECONDS = 24 * 3600;

/**
 * Lines voided (`voidedIds`: on the other node, reaching this hub by sync), or every line of a
 * check cancelled (there or here): a VOID ticket for each line this hub's printers had a ticket of
 * (catch-up.ts takeBackOf), one per station and mark. A line rung in and voided on the other node
 * never printed here and prints nothing. Once: sync brings the void once (its op id); a repair or
 * a later pull finds the line voided already, and a line with a VOID ticket here is never taken
 * back again. A check merged into another closes as cancelled: its lines went on, nothing to take back.
 */
export async function enqueueTakenBack(trx: Executor, change: OrderChange, voidedIds: string[]): Promise<void> {
  const { actor, order, items, previousStatus } = change;
  const voided = new Set(voidedIds);
  const cancelled = order.status === 'cancelled' && previousStatus !== null && previousStatus !== 'cancelled' && !order.merged_into;
  // a cancel takes back every line still on the check; one voided before was taken back then
  const asked = items.filter((l) => voided.has(l.id) || (cancelled && !l.voided_at));
  if (asked.length === 0) return;
  const now = seconds(actor);
  const onPaper = await ticketsOnPaper(trx, order.restaurant_id, asked.map((l) => l.id), now);
  const lines = asked.filter((l) => onPaper.has(l.id));
  if (lines.length === 0) return;
  const { timezone } = await sharedRead(change, `settings:${order.restaurant_id}`, () => getSettings(trx, order.restaurant_id));
  const byMark = new Map<string, OrderItemRow[]>();
  for (const line of lines) {
    const t = takeBackOf(Number(line.voided_at ?? order.cancelled_at ?? now), now);
    if (!t.print) continue;
    const mark = t.late ? lateVoidMark(t.voidedAt, timezone) : '';
    byMark.set(mark, [...(byMark.get(mark) ?? []), line]);
  }
  for (const [mark, group] of byMark) await enqueueVoidTickets(trx, actor, order, group, mark ? [mark] : []);
}

/**
 * Of these lines, those a kitchen ticket of this node carries (queued, printing, printed; skipped
 * in sandbox, as the void will be; not failed: no paper came out) and no VOID ticket has taken back.
 */
async function ticketsOnPaper(trx: Executor, restaurantId: string, lineIds: string[], now: number): Promise<Set<string>> {
  const jobs = await trx
    .selectFrom('print_jobs')
    .select(['line_ids', 'voids', 'state'])
    .where('restaurant_id', '=', restaurantId)
    .where('created', '>=', now - TICKETS_WITHIN_SECONDS)
    .where('kind', '=', 'kitchen_ticket')
    .where((eb) => eb.or(lineIds.map((id) => eb('line_ids', 'like', `%"${id}"%`))))
    .execute();
  const printed = new Set<string>();
  const takenBack = new Set<string>();
  for (const j of jobs) {
    const ids = JSON.parse(j.line_ids) as string[];
    if (j.voids === 1) ids.forEach((id) => takenBack.add(id));
    else if (j.state !== 'failed') ids.forEach((id) => printed.add(id));
  }
  return new Set(lineIds.filter((id) => printed.has(id) && !takenBack.has(id)));
}
