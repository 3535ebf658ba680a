import { PAYMENT_METHODS } from '../../model/payments.ts';
import type { DateRange } from './calendar.ts';
import type { ReportContext } from './context.ts';

/**
 * Payment mix and tips by server over a range of business days (live payments only): the
 * money taken by method with the refunds given in the range netted, and each server's tips
 * (the person who took the payment, else the order's server).
 */
export async function paymentsReport(ctx: ReportContext, range: DateRange) {
  const pays = await ctx.db
    .selectFrom('payments')
    .select(['method', 'amount', 'tip_amount', 'server_id'])
    .where('restaurant_id', '=', ctx.restaurantId)
    .where('livemode', '=', 1)
    .where('business_date', '>=', range.start)
    .where('business_date', '<=', range.end)
    .execute();
  const refunds = await ctx.db
    .selectFrom('payment_refunds as r')
    .innerJoin('payments as p', 'p.id', 'r.payment_id')
    .select(['p.method', 'r.amount'])
    .where('r.restaurant_id', '=', ctx.restaurantId)
    .where('r.livemode', '=', 1)
    .where('r.business_date', '>=', range.start)
    .where('r.business_date', '<=', range.end)
    .execute();
  const total = pays.reduce((s, p) => s + Number(p.amount), 0) - refunds.reduce((s, r) => s + Number(r.amount), 0);
  const by_method = PAYMENT_METHODS.map((method) => {
    const mine = pays.filter((p) => p.method === method);
    const amount = mine.reduce((s, p) => s + Number(p.amount), 0) - refunds.filter((r) => r.method === method).reduce((s, r) => s + Number(r.amount), 0);
    return { method, count: mine.length, amount, tip_amount: mine.reduce((s, p) => s + Number(p.tip_amount), 0), share: total > 0 ? Math.round((amount / total) * 1000) / 1000 : 0 };
  });
  const tips = new Map<string, { count: number; tip_amount: number }>();
  for (const p of pays) {
    if (!p.server_id) continue;
    const t = tips.get(p.server_id) ?? { count: 0, tip_amount: 0 };
    t.count++;
    t.tip_amount += Number(p.tip_amount);
    tips.set(p.server_id, t);
  }
  const ids = [...tips.keys()];
  const names = new Map(ids.length ? (await ctx.db.selectFrom('users').select(['id', 'name']).where('id', 'in', ids).execute()).map((u) => [u.id, u.name]) : []);
  return {
    object: 'analytics.payments' as const,
    start_date: range.start,
    end_date: range.end,
    total_amount: total,
    by_method,
    tips_by_server: [...tips]
      .map(([user, t]) => ({ user, user_name: names.get(user) ?? user, payments: t.count, tip_amount: t.tip_amount }))
      .sort((a, b) => b.tip_amount - a.tip_amount || a.user_name.localeCompare(b.user_name)),
  };
}
