import type { Executor } from '../../db/records.ts';
import { ApiError } from '../../errors.ts';
import type { OrderItemRow } from '../../db/tables/order-items.table.ts';
import type { OrderRow } from '../../db/tables/orders.table.ts';
import type { Actor } from '../../services.ts';
import { findOrder } from '../orders/find-order.ts';
import { lineBills, spread } from '../../model/totals.ts';
import { chargeForLines, refundedByPayment } from './balance.ts';
import { balanceOf } from '../../model/payments.ts';
import type { CheckBalance as Balance, EvenShare, SeatBalance } from '../../model/payments.ts';

export type CheckBalance = Balance<OrderRow>;

/** What a payment needs for the balance: its amount, the lines it named, what went back on it. */
export interface BalancePayment {
  amount: number;
  /** the line ids a payment by items named; null for a payment by amount */
  items: string[] | null;
  refunded: number;
}

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
export function balanceDetail(order: OrderRow, items: OrderItemRow[], payments: BalancePayment[], ways?: number, asked?: string[]): Omit<CheckBalance, 'order'> {
  const balance = balanceOf(order);
  const bills = lineBills(items, order);
  const net = new Map(items.map((l, i) => [l.id, bills[i]!.net_amount]));
  const paidFor = new Map<string, number>();
  const paidLines = new Set<string>();
  let byAmount = 0;
  for (const p of payments) {
    const kept = p.amount - p.refunded;
    if (!p.items) {
      byAmount += kept;
      continue;
    }
    // a payment refunded whole no longer pays its lines (paidLineIds' rule)
    if (kept <= 0) continue;
    const shares = spread(kept, p.items.map((id) => net.get(id) ?? 0));
    p.items.forEach((id, i) => {
      paidLines.add(id);
      paidFor.set(id, (paidFor.get(id) ?? 0) + shares[i]!);
    });
  }
  const unpaidAll = items.filter((l) => !paidLines.has(l.id) && !l.voided_at);
  const seats = new Map<number | null, SeatBalance>();
  items.forEach((l, i) => {
    const s = seats.get(l.seat) ?? { seat: l.seat, net_amount: 0, tax_amount: 0, paid: 0, due: 0, unpaid_items: [] };
    s.net_amount += bills[i]!.net_amount;
    s.tax_amount += bills[i]!.tax;
    s.paid += paidFor.get(l.id) ?? 0;
    // a line that costs nothing (comped) is not asked for: a payment names what it pays for
    if (!paidLines.has(l.id) && !l.voided_at && bills[i]!.net_amount > 0) s.unpaid_items.push(l.id);
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
    const byId = new Map(items.map((l) => [l.id, l]));
    const unknown = asked.find((id) => !byId.has(id));
    if (unknown) throw new ApiError('parameter_invalid', `Line '${unknown}' is not on this check.`, 'items');
    // as takePayment refuses them: a line paid already or voided has nothing left to pay
    const closed = asked.find((id) => paidLines.has(id) || byId.get(id)!.voided_at);
    if (closed) throw new ApiError('state_conflict', `Line ${byId.get(closed)!.idx} (${byId.get(closed)!.name}) is paid or voided: there is nothing to pay for it.`, 'items');
    const amount = balance.amount_due > 0 ? chargeForLines(net, unpaidAll.map((l) => l.id), asked, balance.amount_due) : 0;
    items_charge = { items: asked, amount };
  }
  return {
    total: Number(order.total),
    ...balance,
    seats: [...seats.values()].sort((a, b) => (a.seat ?? Infinity) - (b.seat ?? Infinity)),
    split,
    items_charge,
  };
}

/** The balance of one order as the caller's key sees it; undefined when there is no such order. */
export async function checkBalance(
  db: Executor,
  actor: Pick<Actor, 'restaurantId' | 'livemode'>,
  orderId: string,
  opts: { ways?: number; items?: string[] } = {},
): Promise<CheckBalance | undefined> {
  const found = await findOrder(db, actor, orderId);
  if (!found) return undefined;
  const rows = await db.selectFrom('payments').select(['id', 'amount', 'items']).where('order_id', '=', found.order.id).orderBy('created').orderBy('id').execute();
  const refunded = await refundedByPayment(
    db,
    rows.map((r) => r.id),
  );
  const payments = rows.map((r) => ({ amount: Number(r.amount), items: r.items ? (JSON.parse(r.items) as string[]) : null, refunded: refunded.get(r.id) ?? 0 }));
  return { order: found.order, ...balanceDetail(found.order, found.items, payments, opts.ways, opts.items) };
}
