import type { Executor } from '../../db/records.ts';
import type { OrderItemRow } from '../../db/tables/order-items.table.ts';
import type { OrderRow } from '../../db/tables/orders.table.ts';

export type PaymentStatus = 'unpaid' | 'partially_paid' | 'paid';

/**
 * What the guest still owes and where the bill stands. `amount_paid` is payments less
 * refunds, tips aside; more than the total is possible only when both sides of a sync
 * took the same bill while apart (listed as an overpayment conflict), and never owes less than 0.
 */
export function balanceOf(order: Pick<OrderRow, 'total' | 'amount_paid'>): { amount_paid: number; amount_due: number; payment_status: PaymentStatus } {
  const paid = Number(order.amount_paid);
  const due = Math.max(0, Number(order.total) - paid);
  const status: PaymentStatus = paid <= 0 ? (Number(order.total) > 0 ? 'unpaid' : 'paid') : due === 0 ? 'paid' : 'partially_paid';
  return { amount_paid: paid, amount_due: due, payment_status: status };
}

/**
 * What one line costs the guest, as orders/totals.ts totalsOf sums it: its price less its own
 * discount, plus its tax where tax is added on top (not where prices include it); a voided
 * line costs nothing.
 */
export const lineTotal = (line: Pick<OrderItemRow, 'line_subtotal' | 'tax_amount' | 'discount_amount' | 'voided_at'>, pricesIncludeTax: boolean): number =>
  line.voided_at ? 0 : Number(line.line_subtotal) - Number(line.discount_amount ?? 0) + (pricesIncludeTax ? 0 : Number(line.tax_amount));

/** Payments less refunds of one order, tips aside: made from the records, the same on every node. */
export async function countPaid(db: Executor, orderId: string): Promise<number> {
  return (await countPaidOf(db, [orderId])).get(orderId) ?? 0;
}

/** countPaid of many orders in two statements (sync counts every order a batch touched). */
export async function countPaidOf(db: Executor, orderIds: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (let i = 0; i < orderIds.length; i += 500) {
    const ids = orderIds.slice(i, i + 500);
    const sums = (table: 'payments' | 'payment_refunds') =>
      db.selectFrom(table).select((eb) => ['order_id', eb.fn.sum<number>('amount').as('n')]).where('order_id', 'in', ids).groupBy('order_id').execute();
    for (const r of await sums('payments')) out.set(r.order_id, (out.get(r.order_id) ?? 0) + Number(r.n ?? 0));
    for (const r of await sums('payment_refunds')) out.set(r.order_id, (out.get(r.order_id) ?? 0) - Number(r.n ?? 0));
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
