import type { ReportContext } from './context.ts';
import { type DateRange, type GroupBy, periodOf, periodsOf, today } from './calendar.ts';
import { roundDiv } from '../../model/sales-rules.ts';
import { ORDER_TYPES } from '../../model/orders.ts';
import { weekdayOfDayNumber } from '../../model/weekdays.ts';

/** Sales per local day and order type over a range, from the daily roll-up. */
async function dailyByType(ctx: ReportContext, range: DateRange) {
  const rows = await ctx.db
    .selectFrom('analytics_daily')
    .select((eb) => ['day', 'type', eb.fn.sum<number>('orders').as('orders'), eb.fn.sum<number>('revenue').as('revenue')])
    .where('restaurant_id', '=', ctx.restaurantId)
    .where('day', '>=', range.start)
    .where('day', '<=', range.end)
    .groupBy(['day', 'type'])
    .execute();
  return rows.map((r) => ({ day: r.day, type: r.type, orders: Number(r.orders), revenue: Number(r.revenue) }));
}

export async function salesTotals(ctx: ReportContext, range: DateRange): Promise<{ orders: number; revenue: number }> {
  const r = await ctx.db
    .selectFrom('analytics_daily')
    .select((eb) => [eb.fn.sum<number>('orders').as('orders'), eb.fn.sum<number>('revenue').as('revenue')])
    .where('restaurant_id', '=', ctx.restaurantId)
    .where('day', '>=', range.start)
    .where('day', '<=', range.end)
    .executeTakeFirst();
  return { orders: Number(r?.orders ?? 0), revenue: Number(r?.revenue ?? 0) };
}

/** Daily revenue for every day of the range, days without sales as 0. */
export async function dailyRevenue(ctx: ReportContext, range: DateRange): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const r of await dailyByType(ctx, range)) out.set(r.day, (out.get(r.day) ?? 0) + r.revenue);
  return out;
}

export async function revenueReport(ctx: ReportContext, range: DateRange, groupBy: GroupBy) {
  const acc = new Map(periodsOf(range.start, range.end, groupBy).map((p) => [p, { revenue: 0, orders: 0 }]));
  for (const r of await dailyByType(ctx, range)) {
    const a = acc.get(periodOf(r.day, groupBy))!;
    a.revenue += r.revenue;
    a.orders += r.orders;
  }
  return {
    object: 'analytics.revenue' as const,
    group_by: groupBy,
    data: [...acc].map(([period, a]) => ({
      period,
      revenue: a.revenue,
      order_count: a.orders,
      avg_order_value: roundDiv(a.revenue, a.orders),
    })),
  };
}

export async function ordersReport(ctx: ReportContext, range: DateRange, groupBy: GroupBy) {
  const acc = new Map(
    periodsOf(range.start, range.end, groupBy).map((p) => [p, { count: 0, by_type: { dine_in: 0, takeout: 0, delivery: 0 } as Record<string, number> }]),
  );
  for (const r of await dailyByType(ctx, range)) {
    const a = acc.get(periodOf(r.day, groupBy))!;
    a.count += r.orders;
    a.by_type[r.type] = (a.by_type[r.type] ?? 0) + r.orders;
  }
  return {
    object: 'analytics.orders' as const,
    group_by: groupBy,
    data: [...acc].map(([period, a]) => ({ period, count: a.count, by_type: a.by_type })),
  };
}

/** The peak-hours report's day labels: Sunday first, like analytics_daily.weekday (0 = Sunday). */
export const WEEKDAY_NAMES = Array.from({ length: 7 }, (_, day) => {
  const name = weekdayOfDayNumber(day);
  return name[0].toUpperCase() + name.slice(1);
});

export async function peakHoursReport(ctx: ReportContext, range: DateRange) {
  const rows = await ctx.db
    .selectFrom('analytics_daily')
    .select((eb) => ['weekday', 'hour', eb.fn.sum<number>('orders').as('orders'), eb.fn.sum<number>('revenue').as('revenue')])
    .where('restaurant_id', '=', ctx.restaurantId)
    .where('day', '>=', range.start)
    .where('day', '<=', range.end)
    .groupBy(['weekday', 'hour'])
    .execute();
  const data = WEEKDAY_NAMES.map(() => Array.from({ length: 24 }, () => ({ orders: 0, revenue: 0 })));
  for (const r of rows) data[Number(r.weekday)][Number(r.hour)] = { orders: Number(r.orders), revenue: Number(r.revenue) };
  return {
    object: 'analytics.peak_hours' as const,
    days: WEEKDAY_NAMES,
    hours: Array.from({ length: 24 }, (_, h) => `${String(h).padStart(2, '0')}:00`),
    data,
  };
}

export function todayRange(ctx: ReportContext): DateRange {
  const d = today(ctx.nowMs, ctx.zone);
  return { start: d, end: d };
}
