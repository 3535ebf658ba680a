import type { Executor } from '../../db/records.ts';
import type { RefundRow } from '../../db/tables/payment-refunds.table.ts';

/** The refunds of many payments in one query, oldest first, by payment id. */
export async function refundsOf(db: Executor, paymentIds: string[]): Promise<Map<string, RefundRow[]>> {
  const map = new Map<string, RefundRow[]>();
  if (!paymentIds.length) return map;
  const rows = await db.selectFrom('payment_refunds').selectAll().where('payment_id', 'in', paymentIds).orderBy('created').orderBy('id').execute();
  for (const r of rows) map.set(r.payment_id, [...(map.get(r.payment_id) ?? []), r]);
  return map;
}
