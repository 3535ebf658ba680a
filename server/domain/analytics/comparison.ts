import { addDays, type DateRange, daysBetween } from './calendar.ts';
import type { ReportContext } from './context.ts';
import { newCustomers } from './customers.ts';
import { reservationCount } from './reservations.ts';
import { roundDiv } from '../../model/sales-rules.ts';
import { salesTotals } from './sales.ts';

/**
 * Percent change as a string with one decimal, rounded half away from zero, exactly.
 * From 0 to 0 is "0.0"; from 0 to anything more is "100.0" (never Infinity or NaN).
 */
export function percentChange(current: number, previous: number): string {
  if (previous === 0) return current === 0 ? '0.0' : '100.0';
  const n = BigInt(current - previous) * 1000n;
  const d = BigInt(previous);
  const abs = n < 0n ? -n : n;
  const tenths = (2n * abs + d) / (2n * d);
  const signed = n < 0n && tenths !== 0n ? '-' : '';
  return `${signed}${tenths / 10n}.${tenths % 10n}`;
}

async function periodFigures(ctx: ReportContext, range: DateRange) {
  const sales = await salesTotals(ctx, range);
  return {
    revenue: sales.revenue,
    orders: sales.orders,
    avgOrderValue: roundDiv(sales.revenue, sales.orders),
    customers: await newCustomers(ctx, range),
    reservations: await reservationCount(ctx, range, (s) => s !== 'cancelled'),
  };
}

export function previousRange(range: DateRange): DateRange {
  const len = daysBetween(range.start, range.end);
  return { start: addDays(range.start, -len), end: addDays(range.start, -1) };
}

export async function periodComparisonReport(ctx: ReportContext, range: DateRange) {
  const current = await periodFigures(ctx, range);
  const previous = await periodFigures(ctx, previousRange(range));
  const keys = Object.keys(current) as (keyof typeof current)[];
  return {
    object: 'analytics.period_comparison' as const,
    current,
    previous,
    changes: Object.fromEntries(keys.map((k) => [k, percentChange(current[k], previous[k])])) as Record<keyof typeof current, string>,
  };
}
