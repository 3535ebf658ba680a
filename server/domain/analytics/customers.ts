import { addDays, type DateRange, startOfLocalDay } from './calendar.ts';
import type { ReportContext } from './context.ts';
import { loyaltyPoints } from '../../model/sales-rules.ts';

export const TOP_CUSTOMERS = 10;

/** Customers first seen (created or matched from an order or reservation) on a local day of the range. */
export async function newCustomers(ctx: ReportContext, range: DateRange): Promise<number> {
  const r = await ctx.db
    .selectFrom('customers')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('restaurant_id', '=', ctx.restaurantId)
    .where('first_seen', '>=', startOfLocalDay(range.start, ctx.zone))
    .where('first_seen', '<', startOfLocalDay(addDays(range.end, 1), ctx.zone))
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

export async function customersReport(ctx: ReportContext, range: DateRange) {
  const top = await ctx.db
    .selectFrom('analytics_customer_totals as t')
    .innerJoin('customers as c', 'c.id', 't.customer_id')
    .select(['t.customer_id', 'c.name', 't.visits', 't.total_spent'])
    .where('t.restaurant_id', '=', ctx.restaurantId)
    .where('t.visits', '>', 0)
    .orderBy('t.total_spent', 'desc')
    .orderBy('t.customer_id', 'desc')
    .limit(TOP_CUSTOMERS)
    .execute();
  return {
    object: 'analytics.customers' as const,
    new_customers: await newCustomers(ctx, range),
    top_customers: top.map((t) => ({
      id: t.customer_id,
      name: t.name,
      total_visits: Number(t.visits),
      total_spent: Number(t.total_spent),
      loyalty_points: loyaltyPoints(Number(t.total_spent)),
    })),
  };
}
