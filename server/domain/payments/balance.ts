import type { Executor } from '../../db/records.ts';
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

/**
 * Lines already paid by a payment of the order: those a payment by `items` named, unless
 * that payment was refunded whole (its lines are then owed again).
 */
export async function paidLineIds(db: Executor, orderId: string): Promise<Set<string>> {
  const pays = await db.selectFrom('payments').select(['id', 'amount', 'items']).where('order_id', '=', orderId).where('items', 'is not', null).execute();
  if (!pays.length) return new Set();
  const refunded = await refundedByPayment(db, pays.map((p) => p.id));
  const out = new Set<string>();
  for (const p of pays) {
    if ((refunded.get(p.id) ?? 0) >= Number(p.amount)) continue;
    for (const id of JSON.parse(p.items!) as string[]) out.add(id);
  }
  return out;
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
