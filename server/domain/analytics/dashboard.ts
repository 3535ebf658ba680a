import type { ReportContext } from './context.ts';
import { newCustomers } from './customers.ts';
import { ACTIVE_RESERVATION_STATUSES } from '../../model/reservations.ts';
import { reservationCount } from './reservations.ts';
import { salesTotals, todayRange } from './sales.ts';

/** Today, in the restaurant's time zone. */
export async function dashboardReport(ctx: ReportContext) {
  const range = todayRange(ctx);
  const sales = await salesTotals(ctx, range);
  return {
    object: 'analytics.dashboard' as const,
    total_orders: sales.orders,
    total_revenue: sales.revenue,
    active_reservations: await reservationCount(ctx, range, (s) => (ACTIVE_RESERVATION_STATUSES as readonly string[]).includes(s)),
    new_customers: await newCustomers(ctx, range),
  };
}
