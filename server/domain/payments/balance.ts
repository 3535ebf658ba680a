import type { Executor } from '../../db/records.ts';
import { ApiError } from '../../errors.ts';
import type { ItemShare, LineSplit } from '../../model/payments.ts';
import type { OrderItemRow } from '../../db/tables/order-items.table.ts';
import type { OrderRow } from '../../db/tables/orders.table.ts';
import { lineBills, type LineBill } from '../../model/totals.ts';

/** Each line's bill (model/totals.ts) by line id: what a payment by lines is charged. */
export function billsById(order: Pick<OrderRow, 'prices_include_tax' | 'check_discount_amount'>, items: OrderItemRow[]): Map<string, LineBill> {
  const bills = lineBills(items, order);
  return new Map(items.map((l, i) => [l.id, bills[i]!]));
}

/**
 * What a payment of the lines `ids` records, the one rule the payment command and the balance
 * share: the lines' net amounts, or everything still due when they are the check's last unpaid
 * lines (whatever was paid by amount before them). `unpaid`: the check's lines neither paid nor
 * voided. More than `due` is refused by the payment command.
 */
export function chargeForLines(net: ReadonlyMap<string, number>, unpaid: readonly string[], ids: readonly string[], due: number): number {
  const asked = new Set(ids);
  if (unpaid.every((id) => asked.has(id))) return due;
  return ids.reduce((s, id) => s + (net.get(id) ?? 0), 0);
}

/** Payments less refunds of one order, and its returns, tips aside: made from the records, the same on every node. */
export async function countPaid(db: Executor, orderId: string): Promise<{ amount_paid: number; amount_returned: number }> {
  return (await countPaidOf(db, [orderId])).get(orderId) ?? { amount_paid: 0, amount_returned: 0 };
}

/** countPaid of many orders in two statements (sync counts every order a batch touched). */
export async function countPaidOf(db: Executor, orderIds: string[]): Promise<Map<string, { amount_paid: number; amount_returned: number }>> {
  const out = new Map<string, { amount_paid: number; amount_returned: number }>();
  const at = (id: string) => out.get(id) ?? (out.set(id, { amount_paid: 0, amount_returned: 0 }), out.get(id)!);
  for (let i = 0; i < orderIds.length; i += 500) {
    const ids = orderIds.slice(i, i + 500);
    for (const id of ids) at(id);
    const pays = await db.selectFrom('payments').select((eb) => ['order_id', eb.fn.sum<number>('amount').as('n')]).where('order_id', 'in', ids).groupBy('order_id').execute();
    for (const r of pays) at(r.order_id).amount_paid += Number(r.n ?? 0);
    const refunds = await db
      .selectFrom('payment_refunds')
      .select((eb) => ['order_id', 'is_return', eb.fn.sum<number>('amount').as('n')])
      .where('order_id', 'in', ids)
      .groupBy(['order_id', 'is_return'])
      .execute();
    for (const r of refunds) {
      at(r.order_id).amount_paid -= Number(r.n ?? 0);
      if (Number(r.is_return) === 1) at(r.order_id).amount_returned += Number(r.n ?? 0);
    }
  }
  return out;
}

export type { ItemShare, LineSplit } from '../../model/payments.ts';

/** A payment as the lines' accounts need it. */
export interface LinePayment {
  amount: number;
  /** lines it paid whole; null for a payment by amount */
  items: string[] | null;
  /** shares of lines it paid; null when none */
  shares: ItemShare[] | null;
  refunded: number;
}

/**
 * What the live payments paid of the lines: those paid whole, and the shares paid of each line
 * being split. A payment refunded whole pays nothing any more (its lines and shares are owed
 * again); one refunded in part still pays them, as a line paid and partly refunded stays paid.
 */
export interface LinesPaid {
  whole: Set<string>;
  shares: Map<string, ItemShare[]>;
}

export function linesPaidBy(payments: readonly LinePayment[]): LinesPaid {
  const whole = new Set<string>();
  const shares = new Map<string, ItemShare[]>();
  for (const p of payments) {
    if (p.amount - p.refunded <= 0) continue;
    for (const id of p.items ?? []) whole.add(id);
    for (const s of p.shares ?? []) shares.set(s.item, [...(shares.get(s.item) ?? []), s]);
  }
  return { whole, shares };
}

/** A line's N equal shares: floor(net / N) each, the last taking what rounding leaves (10.00 in 3: 3.33, 3.33, 3.34). */
export function shareAmounts(net: number, parts: number): number[] {
  const each = Math.floor(net / parts);
  return Array.from({ length: parts }, (_, i) => (i === parts - 1 ? net - each * (parts - 1) : each));
}

/**
 * The shares of a line split in `parts`, the paid ones as they were recorded, the others from
 * what is left: in order, each its equal share of the net amount and the last all that is left,
 * so the shares add up to the line's net amount exactly (even when a discount changed it
 * between two shares).
 */
export function lineSplit(item: string, net: number, parts: number, paid: readonly ItemShare[]): LineSplit {
  const byPart = new Map(paid.map((s) => [s.part, s]));
  const paidSum = paid.reduce((s, x) => s + x.amount, 0);
  const equal = shareAmounts(net, parts);
  const missing = equal.map((_, i) => i + 1).filter((k) => !byPart.has(k));
  let left = Math.max(0, net - paidSum);
  const owed = new Map<number, number>();
  missing.forEach((k, i) => {
    const amount = i === missing.length - 1 ? left : Math.min(equal[k - 1]!, left);
    owed.set(k, amount);
    left -= amount;
  });
  const shares = equal.map((_, i) => {
    const k = i + 1;
    const p = byPart.get(k);
    return p ? { part: k, amount: p.amount, paid: true } : { part: k, amount: owed.get(k)!, paid: false };
  });
  const next = shares.find((s) => !s.paid && s.amount > 0);
  return { item, parts, net_amount: net, paid: paidSum, left: Math.max(0, net - paidSum), shares, next: next ? { part: next.part, amount: next.amount } : null };
}

/** A line split into shares is paid once every share is, or once its shares cover what it costs. */
export function isLinePaid(state: LinesPaid, id: string, net: number): boolean {
  if (state.whole.has(id)) return true;
  const shares = state.shares.get(id);
  if (!shares?.length) return false;
  return new Set(shares.map((s) => s.part)).size >= shares[0]!.parts || shares.reduce((s, x) => s + x.amount, 0) >= net;
}

/** What a payment by lines asks for: lines whole, and one share of others. */
export interface LinesAsked {
  items: string[];
  shares: { item: string; parts: number }[];
}

/**
 * What paying `ask` records, the one rule the payment command and the balance share, refusing
 * what cannot be paid: a line twice, a line not on the check, paid or voided, a line being paid
 * in shares named whole, a share in another number of parts than the line's shares so far.
 * Each line whole costs its net amount, each share the line's next share (lineSplit); when the
 * ask settles the check's last unpaid lines it records all that is still due instead, whatever
 * was paid by amount before.
 */
export function chargeFor(
  lines: readonly Pick<OrderItemRow, 'id' | 'idx' | 'name' | 'voided_at'>[],
  net: ReadonlyMap<string, number>,
  state: LinesPaid,
  ask: LinesAsked,
  due: number,
): { amount: number; items: string[]; shares: ItemShare[] } {
  const named = [...ask.items, ...ask.shares.map((s) => s.item)];
  if (new Set(named).size !== named.length) throw new ApiError('parameter_invalid', 'items and item_shares name the same line twice.', ask.shares.length ? 'item_shares' : 'items');
  const byId = new Map(lines.map((l) => [l.id, l]));
  const label = (id: string) => `Line ${byId.get(id)!.idx} (${byId.get(id)!.name})`;
  for (const [id, param] of [...ask.items.map((id) => [id, 'items'] as const), ...ask.shares.map((s) => [s.item, 'item_shares'] as const)]) {
    if (!byId.has(id)) throw new ApiError('parameter_invalid', `'${id}' is not a line of this order.`, param);
    if (isLinePaid(state, id, net.get(id) ?? 0)) throw new ApiError('state_conflict', `${label(id)} is already paid.`, param);
    if (byId.get(id)!.voided_at) throw new ApiError('state_conflict', `${label(id)} was voided: there is nothing to pay for it.`, param);
  }
  const partly = ask.items.find((id) => state.shares.get(id)?.length);
  if (partly) {
    const s = state.shares.get(partly)!;
    throw new ApiError('state_conflict', `${label(partly)} is being paid in ${s[0]!.parts} shares: pay its next share (item_shares) instead.`, 'items');
  }
  const shares: ItemShare[] = [];
  let completes = true;
  for (const a of ask.shares) {
    const paid = state.shares.get(a.item) ?? [];
    if (paid.length && paid[0]!.parts !== a.parts) {
      throw new ApiError('state_conflict', `${label(a.item)} is being paid in ${paid[0]!.parts} shares, not ${a.parts}.`, 'item_shares');
    }
    const split = lineSplit(a.item, net.get(a.item) ?? 0, a.parts, paid);
    if (!split.next) throw new ApiError('state_conflict', `${label(a.item)} has nothing left to pay.`, 'item_shares');
    shares.push({ item: a.item, parts: a.parts, part: split.next.part, amount: split.next.amount });
    // this share completes its line when it is the only one still owing
    if (split.shares.filter((s) => !s.paid && s.amount > 0).length > 1) completes = false;
  }
  const unpaid = lines.filter((l) => !l.voided_at && !isLinePaid(state, l.id, net.get(l.id) ?? 0)).map((l) => l.id);
  const asked = new Set(named);
  // the last unpaid lines settle the bill, whatever was paid by amount before them
  const amount = completes && unpaid.every((id) => asked.has(id)) ? due : ask.items.reduce((s, id) => s + (net.get(id) ?? 0), 0) + shares.reduce((s, x) => s + x.amount, 0);
  return { amount, items: [...ask.items], shares };
}

/** The order's payments as the lines' accounts need them, oldest first. */
export async function linePayments(db: Executor, orderId: string): Promise<(LinePayment & { id: string })[]> {
  const rows = await db.selectFrom('payments').select(['id', 'amount', 'items', 'item_shares']).where('order_id', '=', orderId).orderBy('created').orderBy('id').execute();
  const refunded = await refundedByPayment(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    id: r.id,
    amount: Number(r.amount),
    items: r.items === null ? null : (JSON.parse(r.items) as string[]),
    shares: r.item_shares === null ? null : (JSON.parse(r.item_shares) as ItemShare[]),
    refunded: refunded.get(r.id) ?? 0,
  }));
}

/** Amount refunded so far on each payment. */
export async function refundedByPayment(db: Executor, paymentIds: string[]): Promise<Map<string, number>> {
  const map = new Map<string, number>();
  if (!paymentIds.length) return map;
  const rows = await db
    .selectFrom('payment_refunds')
    .select(['payment_id', (eb) => eb.fn.sum<number>('amount').as('n')])
    .where('payment_id', 'in', paymentIds)
    .groupBy('payment_id')
    .execute();
  for (const r of rows) map.set(r.payment_id, Number(r.n));
  return map;
}
