import type { Executor } from '../../db/records.ts';
import type { OrderItemRow } from '../../db/tables/order-items.table.ts';
import type { OrderRow } from '../../db/tables/orders.table.ts';
import type { Actor } from '../../services.ts';
import { findOrder } from '../orders/find-order.ts';
import { lineBills, spread } from '../../model/totals.ts';
import { chargeFor, chargeForLines, isLinePaid, linePayments, linesPaidBy, lineSplit, type LinePayment, type LinesAsked } from './balance.ts';
import { balanceOf } from '../../model/payments.ts';
import type { CheckBalance as Balance, EvenShare, SeatBalance } from '../../model/payments.ts';

export type CheckBalance = Balance<OrderRow>;

/** What a payment needs for the balance: its amount, the lines and shares it paid, what went back on it. */
export type BalancePayment = LinePayment;

/**
 * N shares of `amount`, the last taking what rounding leaves (5.00 in 3: 1.66, 1.66, 1.68), with
 * `paid` counted against them in order: share k is paid once the payments reach it.
 */
export function evenShares(amount: number, ways: number, paid: number): EvenShare[] {
  const share = Math.floor(amount / ways);
  let before = 0;
  return Array.from({ length: ways }, (_, i) => {
    const size = i === ways - 1 ? amount - share * (ways - 1) : share;
    const covered = Math.min(size, Math.max(0, paid - before));
    before += size;
    return { n: i + 1, amount: size, paid: covered, due: size - covered };
  });
}

/**
 * A check's balance by seat and, with `ways`, its even split; pure, from the order, its lines
 * and its payments. The numbers are those the payment command charges:
 * - a seat's `paid` is what payments by items paid for its lines (a payment's amount less its
 *   refunds, spread over the lines it named by their net amounts); money paid by amount belongs
 *   to no seat. Its `due` is what paying its unpaid lines records (takePayment's rule: their
 *   net amounts, or all that is due when they are the check's last unpaid lines).
 * - an even split is N shares of what is left to pay by amount (the check's due plus what was
 *   paid by amount, returns taken off), so shares do not shrink as they are paid: 5.00 in 2 is
 *   2.50 and 2.50. Payments by amount count against the shares in order; Σ shares' due =
 *   amount_due.
 */
export function balanceDetail(order: OrderRow, items: OrderItemRow[], payments: BalancePayment[], ways?: number, asked?: LinesAsked): Omit<CheckBalance, 'order'> {
  const balance = balanceOf(order);
  const bills = lineBills(items, order);
  const net = new Map(items.map((l, i) => [l.id, bills[i]!.net_amount]));
  const state = linesPaidBy(payments);
  const paidFor = new Map<string, number>();
  let byAmount = 0;
  for (const p of payments) {
    const kept = p.amount - p.refunded;
    if (!p.items && !p.shares) {
      byAmount += kept;
      continue;
    }
    // a payment refunded whole no longer pays its lines (linesPaidBy's rule)
    if (kept <= 0) continue;
    const paidItems = [...(p.items ?? []).map((id) => ({ id, weight: net.get(id) ?? 0 })), ...(p.shares ?? []).map((s) => ({ id: s.item, weight: s.amount }))];
    const shares = spread(
      kept,
      paidItems.map((x) => x.weight),
    );
    paidItems.forEach((x, i) => paidFor.set(x.id, (paidFor.get(x.id) ?? 0) + shares[i]!));
  }
  const paidLine = (id: string) => isLinePaid(state, id, net.get(id) ?? 0);
  const unpaidAll = items.filter((l) => !paidLine(l.id) && !l.voided_at);
  const seats = new Map<number | null, SeatBalance>();
  items.forEach((l, i) => {
    const s = seats.get(l.seat) ?? { seat: l.seat, net_amount: 0, tax_amount: 0, paid: 0, due: 0, unpaid_items: [] };
    s.net_amount += bills[i]!.net_amount;
    s.tax_amount += bills[i]!.tax;
    s.paid += paidFor.get(l.id) ?? 0;
    // a line that costs nothing (comped) is not asked for: a payment names what it pays for;
    // a line being paid in shares is paid by its shares (split_items), not with its seat
    if (!paidLine(l.id) && !l.voided_at && bills[i]!.net_amount > 0 && !state.shares.get(l.id)?.length) s.unpaid_items.push(l.id);
    seats.set(l.seat, s);
  });
  for (const s of seats.values()) {
    s.due = s.unpaid_items.length && balance.amount_due > 0 ? chargeForLines(net, unpaidAll.map((l) => l.id), s.unpaid_items, balance.amount_due) : 0;
  }
  let split: CheckBalance['split'] = null;
  if (ways) {
    const amount = balance.amount_due + Math.max(0, byAmount);
    const shares = evenShares(amount, ways, Math.max(0, byAmount));
    split = { ways, amount, paid: Math.max(0, byAmount), shares, next: shares.find((s) => s.due > 0) ?? null };
  }
  let items_charge: CheckBalance['items_charge'] = null;
  if (asked) {
    const charge = chargeFor(items, net, state, asked, balance.amount_due);
    items_charge = { items: charge.items, item_shares: charge.shares, amount: balance.amount_due > 0 ? charge.amount : 0 };
  }
  // every line being split, and a line asked about in N shares before its first is paid
  const splitting = new Map([...state.shares].filter(([, s]) => s.length).map(([id, s]) => [id, s[0]!.parts]));
  for (const a of asked?.shares ?? []) if (!splitting.has(a.item)) splitting.set(a.item, a.parts);
  const split_items = items
    .filter((l) => splitting.has(l.id))
    .map((l) => lineSplit(l.id, net.get(l.id) ?? 0, splitting.get(l.id)!, state.shares.get(l.id) ?? []));
  return {
    total: Number(order.total),
    ...balance,
    seats: [...seats.values()].sort((a, b) => (a.seat ?? Infinity) - (b.seat ?? Infinity)),
    split,
    items_charge,
    split_items,
  };
}

/** The balance of one order as the caller's key sees it; undefined when there is no such order. */
export async function checkBalance(
  db: Executor,
  actor: Pick<Actor, 'restaurantId' | 'livemode'>,
  orderId: string,
  opts: { ways?: number; items?: LinesAsked } = {},
): Promise<CheckBalance | undefined> {
  const found = await findOrder(db, actor, orderId);
  if (!found) return undefined;
  return { order: found.order, ...balanceDetail(found.order, found.items, await linePayments(db, found.order.id), opts.ways, opts.items) };
}
