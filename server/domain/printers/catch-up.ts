import { DateTime } from 'luxon';
import type { OrderItemRow } from '../../db/tables/order-items.table.ts';
import type { OrderRow } from '../../db/tables/orders.table.ts';

/**
 * Lines the other node sent to the kitchen reach a hub by sync: at once while both run (an
 * integration's order on the cloud), or when the hub comes back after it was stopped or cut off
 * and its devices worked through the cloud (docs/contributors/two-homes.md). The hub's printers
 * missed the second kind; this is the rule for what they print of it.
 *
 * A line is **late** when it was rung in more than `LATE_AFTER_SECONDS` before it reached the
 * hub. Live sync brings a line within about a second (a silent line is found within seconds),
 * so two minutes is far above any live delay and far below any outage worth telling the pass
 * about, and clocks of the two nodes a few seconds apart do not move a line across it.
 */
export const LATE_AFTER_SECONDS = 120;

/**
 * A line rung in longer ago than this prints nothing: the print queue gives up on a ticket not
 * printed within the same 4 hours (dispatcher.ts `maxAgeSeconds`), since a ticket hours late
 * only confuses the pass; and a new PC pulling the whole restaurant (`comanda sync link`) does
 * not print its history.
 */
export const CATCH_UP_WITHIN_SECONDS = 4 * 3600;

/** Unix seconds the line went to the kitchen: when it was sent or its course fired. */
export const rungInAt = (line: OrderItemRow, order: OrderRow): number => Number(line.sent_to_kitchen_at ?? order.placed_at ?? line.created);

/** What a hub prints of one line another node sent to the kitchen. */
export type Arrival = { print: false } | { print: true; late: false } | { print: true; late: true; rungIn: number };

export function arrivalOf(line: OrderItemRow, order: OrderRow, nowSeconds: number, printMissed: boolean): Arrival {
  // bumped on a screen (ready, served) or voided: the kitchen has it, or must not cook it
  if (line.voided_at || line.status === 'ready' || line.status === 'served') return { print: false };
  const rungIn = rungInAt(line, order);
  const age = lateness(rungIn, nowSeconds);
  if (age === 'on_time') return { print: true, late: false };
  // a check already paid and closed meanwhile was cooked from the screens
  if (!printMissed || order.status === 'completed' || age === 'too_old') return { print: false };
  return { print: true, late: true, rungIn };
}

/** A print for something done at `at` (rung in, voided): on time, late (marked so), or too old to print. */
function lateness(at: number, nowSeconds: number): 'on_time' | 'late' | 'too_old' {
  if (nowSeconds - at <= LATE_AFTER_SECONDS) return 'on_time';
  return nowSeconds - at > CATCH_UP_WITHIN_SECONDS ? 'too_old' : 'late';
}

/** A time of day in the restaurant's zone, as the late marks print it. */
const clockAt = (at: number, timezone: string): string => DateTime.fromSeconds(at, { zone: timezone }).toFormat('HH:mm');

/** The mark printed above a late ticket, in the restaurant's time: "LATE - rung in 20:14". */
export const lateMark = (rungIn: number, timezone: string): string => `LATE - rung in ${clockAt(rungIn, timezone)}`;

/**
 * A line whose kitchen ticket this hub printed, voided on the other node (or its check
 * cancelled there) at `voidedAt`: the station gets a VOID ticket as it would for a void made
 * here, marked late by the same two minutes, since the kitchen may be cooking from the paper.
 * `print_missed_tickets` is not asked: it spares a kitchen working from its screens the paper of
 * tickets it never had; this paper it has, and only a VOID takes it back. A void older than the
 * queue's 4 hours prints nothing, like a ticket that old.
 */
export type TakeBack = { print: false } | { print: true; late: false } | { print: true; late: true; voidedAt: number };

export function takeBackOf(voidedAt: number, nowSeconds: number): TakeBack {
  const age = lateness(voidedAt, nowSeconds);
  if (age === 'on_time') return { print: true, late: false };
  return age === 'too_old' ? { print: false } : { print: true, late: true, voidedAt };
}

/** The mark printed above a late VOID ticket, in the restaurant's time: "LATE - voided 20:31". */
export const lateVoidMark = (voidedAt: number, timezone: string): string => `LATE - voided ${clockAt(voidedAt, timezone)}`;
