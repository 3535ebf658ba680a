import { type GroupBy, resolveRange } from '../../domain/analytics/calendar.ts';
import { periodComparisonReport } from '../../domain/analytics/comparison.ts';
import { reportContext, type ReportContext } from '../../domain/analytics/context.ts';
import { customersReport } from '../../domain/analytics/customers.ts';
import { dashboardReport } from '../../domain/analytics/dashboard.ts';
import { salesForecastReport } from '../../domain/analytics/forecast.ts';
import { inventoryReport } from '../../domain/analytics/inventory.ts';
import { laborReport } from '../../domain/analytics/labor.ts';
import { menuAbcReport, menuItemsReport } from '../../domain/analytics/menu.ts';
import { paymentsReport } from '../../domain/analytics/payments.ts';
import { reservationsReport } from '../../domain/analytics/reservations.ts';
import { ordersReport, peakHoursReport, revenueReport } from '../../domain/analytics/sales.ts';
import { defineRoute, type Call, type RouteSpec } from '../../http/route.ts';
import type { z } from 'zod';
import * as R from '../../presenters/analytics.ts';
import { ForecastQuery, GroupedRangeQuery, RangeQuery } from './schema.ts';

const tag = 'Analytics';
// Reports are made of live sales only (sandbox orders never count) and show staff hours and
// the best customers: none of it is for a sandbox key.

const ctxOf = (c: Call<any, any, any>): Promise<ReportContext> => reportContext(c.db, c.actor().restaurantId, c.now);

/** A report over start_date..end_date (inclusive, local dates; a reversed range is a 400). */
function rangeReport<S extends z.ZodType>(
  path: string,
  summary: string,
  response: S,
  run: (ctx: ReportContext, range: ReturnType<typeof resolveRange>) => Promise<z.output<S>>,
) {
  return defineRoute({
    response,
    method: 'get',
    path,
    summary,
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'analytics:read',
    query: RangeQuery,
    handler: async (c) => {
      const ctx = await ctxOf(c);
      return run(ctx, resolveRange(c.query, c.now, ctx.zone));
    },
  });
}

export const routes: RouteSpec[] = [
  defineRoute({
    method: 'get',
    path: '/v1/analytics/dashboard',
    summary: "Today's orders, revenue, active reservations and new customers",
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'analytics:read',
    response: R.DashboardReport,
    handler: async (c) => dashboardReport(await ctxOf(c)),
  }),

  defineRoute({
    method: 'get',
    path: '/v1/analytics/revenue',
    summary: 'Revenue per day, ISO week or month',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'analytics:read',
    query: GroupedRangeQuery,
    response: R.RevenueReport,
    handler: async (c) => {
      const ctx = await ctxOf(c);
      return revenueReport(ctx, resolveRange(c.query, c.now, ctx.zone), (c.query.group_by ?? 'day') as GroupBy);
    },
  }),

  defineRoute({
    response: R.OrdersReport,
    method: 'get',
    path: '/v1/analytics/orders',
    summary: 'Orders per day, ISO week or month, by type',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'analytics:read',
    query: GroupedRangeQuery,
    handler: async (c) => {
      const ctx = await ctxOf(c);
      return ordersReport(ctx, resolveRange(c.query, c.now, ctx.zone), (c.query.group_by ?? 'day') as GroupBy);
    },
  }),

  rangeReport('/v1/analytics/menu_items', 'Top 50 menu items by quantity sold', R.MenuItemsReport, menuItemsReport),

  rangeReport('/v1/analytics/customers', 'New customers in the range and the top 10 lifetime spenders', R.CustomersReport, customersReport),

  rangeReport('/v1/analytics/payments', 'Payment mix by method (refunds netted) and tips by server', R.PaymentsReport, paymentsReport),

  rangeReport('/v1/analytics/reservations', 'Reservations by status', R.ReservationsReport, reservationsReport),

  defineRoute({
    method: 'get',
    path: '/v1/analytics/inventory',
    summary: 'Stock value and items at or below their reorder level',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'analytics:read',
    response: R.InventoryReport,
    handler: async (c) => inventoryReport(await ctxOf(c)),
  }),

  rangeReport('/v1/analytics/labor', 'Hours and shifts per staff user', R.LaborReport, laborReport),

  rangeReport('/v1/analytics/peak_hours', 'Orders and revenue by weekday and local hour', R.PeakHoursReport, peakHoursReport),

  rangeReport('/v1/analytics/menu_abc', 'Menu items classed A/B/C by revenue share', R.MenuAbcReport, menuAbcReport),

  defineRoute({
    method: 'get',
    path: '/v1/analytics/sales_forecast',
    summary: 'Least-squares forecast of daily revenue from the last 30 days',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'analytics:read',
    query: ForecastQuery,
    response: R.SalesForecastReport,
    handler: async (c) => salesForecastReport(await ctxOf(c), c.query.days ?? 7),
  }),

  rangeReport('/v1/analytics/period_comparison', 'The range against the period of the same length just before it', R.PeriodComparisonReport, periodComparisonReport),
];
