import { updateRecord, type Executor } from '../server/db/records.ts';
import { balanceOf } from '../server/model/payments.ts';
import { countPaid } from '../server/domain/payments/balance.ts';
import { totalsOf } from '../server/model/totals.ts';
import type { OrderRow } from '../server/db/tables/orders.table.ts';
import type { ApplyContext } from './apply-context.ts';
import { recordConflict } from './record-conflict.ts';

export const MERGE_REDIRECT = 'merge_redirect';
export const OWING_AFTER_SYNC = 'owing_after_sync';

/**
 * A merge is a redirect, on both sides: a line, payment or refund the other side aimed at a
 * check that was merged away (here or there, while apart) lands on the check it was merged
 * into, following merges of merges. The survivor's bill and what it has been paid are made
 * again from its records; the move is this node's own change, so it travels, and it is listed
 * (`merge_redirect`) for a person to see. Returns the survivors touched.
 */
export async function redirectMerged(trx: Executor, ctx: ApplyContext, orderIds: Iterable<string>): Promise<Set<string>> {
  const ids = [...new Set(orderIds)];
  const survivors = new Set<string>();
  if (ids.length === 0) return survivors;
  const merged = await trx
    .selectFrom('orders')
    .select(['id', 'merged_into'])
    .where('restaurant_id', '=', ctx.restaurantId)
    .where('id', 'in', ids)
    .where('merged_into', 'is not', null)
    .execute();
  const now = Math.floor(ctx.now / 1000);
  for (const m of merged) {
    const lines = await trx.selectFrom('order_items').selectAll().where('order_id', '=', m.id).orderBy('idx').execute();
    const payments = await trx.selectFrom('payments').select(['id', 'restaurant_id']).where('order_id', '=', m.id).orderBy('id').execute();
    const refunds = await trx.selectFrom('payment_refunds').select(['id', 'restaurant_id']).where('order_id', '=', m.id).orderBy('id').execute();
    if (lines.length + payments.length + refunds.length === 0) continue;
    const into = await survivorOf(trx, ctx, m.merged_into!);
    if (!into || into.id === m.id) continue;
    const theirLines = await trx.selectFrom('order_items').select(['idx', 'seat']).where('order_id', '=', into.id).execute();
    let idx = theirLines.reduce((n, l) => Math.max(n, l.idx), -1) + 1;
    for (const l of lines) await updateRecord(trx, 'order_items', l, { order_id: into.id, idx: idx++, updated: now });
    for (const p of payments) await updateRecord(trx, 'payments', p, { order_id: into.id });
    for (const r of refunds) await updateRecord(trx, 'payment_refunds', r, { order_id: into.id });
    await rebillWhole(trx, into.id, now);
    await rebillWhole(trx, m.id, now);
    survivors.add(into.id);
    await recordConflict(trx, ctx, MERGE_REDIRECT, 'orders', [m.id, into.id], {
      from: m.id,
      into: into.id,
      items: lines.map((l) => l.id),
      payments: payments.map((p) => p.id),
      refunds: refunds.map((r) => r.id),
    });
  }
  return survivors;
}

/** The check a merged one now lives in: the first of the chain not merged away itself. */
async function survivorOf(trx: Executor, ctx: ApplyContext, id: string): Promise<OrderRow | undefined> {
  let at = id;
  for (let hops = 0; hops < 20; hops++) {
    const o = await trx.selectFrom('orders').selectAll().where('restaurant_id', '=', ctx.restaurantId).where('id', '=', at).executeTakeFirst();
    if (!o || !o.merged_into) return o;
    at = o.merged_into;
  }
  return undefined;
}

/** A check's bill and what it has been paid, made again from its lines, payments and refunds. */
async function rebillWhole(trx: Executor, orderId: string, now: number): Promise<void> {
  const order = await trx.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
  const lines = await trx.selectFrom('order_items').selectAll().where('order_id', '=', orderId).execute();
  const totals = totalsOf(lines, order);
  const counted = await countPaid(trx, orderId);
  const patch: Record<string, unknown> = {};
  for (const [k, v] of Object.entries({ ...totals, ...counted })) if (Number(order[k as keyof OrderRow]) !== v) patch[k] = v;
  if (Object.keys(patch).length) await updateRecord(trx, 'orders', order, { ...patch, updated: now });
}

/**
 * A check is completed only when it owes nothing. One that a sync left completed and owing
 * (a refund on one side, the rest paid on the other; a payment moved away by a merge) is open
 * again (`served`), so it shows in the day close's open checks, and it is listed
 * (`owing_after_sync`) for a person: take the rest, or settle it in the back office.
 */
export async function reopenOwing(trx: Executor, ctx: ApplyContext, orderIds: Iterable<string>): Promise<void> {
  const ids = [...new Set(orderIds)];
  if (ids.length === 0) return;
  const now = Math.floor(ctx.now / 1000);
  for (let i = 0; i < ids.length; i += 500) {
    const done = await trx
      .selectFrom('orders')
      .selectAll()
      .where('restaurant_id', '=', ctx.restaurantId)
      .where('id', 'in', ids.slice(i, i + 500))
      .where('status', '=', 'completed')
      .execute();
    const owing = done.filter((o) => balanceOf(o).amount_due > 0);
    if (owing.length === 0) continue;
    // money is kept for a check once it has a payment; one completed without any was paid outside comanda
    const withPayments = new Set(
      (await trx.selectFrom('payments').select('order_id').distinct().where('order_id', 'in', owing.map((o) => o.id)).execute()).map((x) => x.order_id),
    );
    for (const o of owing) {
      if (!withPayments.has(o.id)) continue;
      const { amount_due } = balanceOf(o);
      await updateRecord(trx, 'orders', o, { status: 'served', completed_at: null, updated: now });
      await recordConflict(trx, ctx, OWING_AFTER_SYNC, 'orders', [o.id], { total: Number(o.total), amount_paid: Number(o.amount_paid), amount_due });
    }
  }
}
