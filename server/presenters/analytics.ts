import { z } from 'zod';
import { named } from '../model/schemas.ts';

/**
 * The reports' shapes (the domain builds them, server/domain/analytics/*): the routes declare
 * these as their responses, so a report that drifts from its schema does not compile.
 */
const int = () => z.number().int();
const period = () => z.string().describe('2026-10-25 (day), 2026-W43 (ISO week) or 2026-10 (month)');
const GroupBy = z.enum(['day', 'week', 'month']);

export const DashboardReport = named(
  'DashboardReport',
  z.object({ object: z.literal('analytics.dashboard'), total_orders: int(), total_revenue: int(), active_reservations: int(), new_customers: int() }),
);

export const RevenueReport = named(
  'RevenueReport',
  z.object({
    object: z.literal('analytics.revenue'),
    group_by: GroupBy,
    data: z.array(z.object({ period: period(), revenue: int(), order_count: int(), avg_order_value: int() })),
  }),
);

export const OrdersReport = named(
  'OrdersReport',
  z.object({
    object: z.literal('analytics.orders'),
    group_by: GroupBy,
    data: z.array(z.object({ period: period(), count: int(), by_type: z.record(z.string(), int()) })),
  }),
);

export const MenuItemsReport = named(
  'MenuItemsReport',
  z.object({
    object: z.literal('analytics.menu_items'),
    data: z.array(z.object({ name: z.string(), total_quantity: int(), total_revenue: int(), order_count: int() })),
  }),
);

export const CustomersReport = named(
  'CustomersReport',
  z.object({
    object: z.literal('analytics.customers'),
    new_customers: int(),
    top_customers: z.array(
      z.object({ id: z.string(), name: z.string().nullable(), total_visits: int(), total_spent: int(), loyalty_points: int() }),
    ),
  }),
);

export const ReservationsReport = named(
  'ReservationsReport',
  z.object({
    object: z.literal('analytics.reservations'),
    by_status: z.array(z.object({ status: z.string(), count: int(), avg_party_size: z.number() })),
  }),
);

export const InventoryReport = named(
  'InventoryReport',
  z.object({
    object: z.literal('analytics.inventory'),
    low_stock_items: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        sku: z.string().nullable(),
        unit: z.string(),
        quantity: z.number(),
        reorder_level: z.number(),
        unit_cost: int(),
      }),
    ),
    total_value: int(),
    item_count: int(),
  }),
);

export const LaborReport = named(
  'LaborReport',
  z.object({
    object: z.literal('analytics.labor'),
    data: z.array(z.object({ user: z.string(), user_name: z.string(), total_hours: z.number(), shifts: int() })),
  }),
);

export const PaymentsReport = named(
  'PaymentsReport',
  z.object({
    object: z.literal('analytics.payments'),
    start_date: z.string(),
    end_date: z.string(),
    /** payments less the refunds given in the range, tips aside */
    total_amount: int(),
    /** the payment mix: share is the method's part of total_amount (0–1) */
    by_method: z.array(z.object({ method: z.enum(['cash', 'card', 'other']), count: int(), amount: int(), tip_amount: int(), share: z.number() })),
    tips_by_server: z.array(z.object({ user: z.string(), user_name: z.string(), payments: int(), tip_amount: int() })),
  }),
);

export const PeakHoursReport = named(
  'PeakHoursReport',
  z.object({
    object: z.literal('analytics.peak_hours'),
    days: z.array(z.string()),
    hours: z.array(z.string()),
    data: z.array(z.array(z.object({ orders: int(), revenue: int() }))).describe('data[weekday][hour]'),
  }),
);

export const MenuAbcReport = named(
  'MenuAbcReport',
  z.object({
    object: z.literal('analytics.menu_abc'),
    items: z.array(
      z.object({
        menu_item: z.string(),
        name: z.string(),
        quantity_sold: int(),
        total_revenue: int(),
        revenue_percent: z.string(),
        order_count: int(),
        classification: z.enum(['A', 'B', 'C']),
      }),
    ),
    summary: z.object({ totalItems: int(), classA: int(), classB: int(), classC: int(), totalRevenue: int() }),
  }),
);

export const SalesForecastReport = named(
  'SalesForecastReport',
  z.object({
    object: z.literal('analytics.sales_forecast'),
    historical: z.array(z.object({ date: z.string(), revenue: int() })),
    forecast: z.array(z.object({ date: z.string(), predictedRevenue: int(), confidence: z.number() })),
    trend: z.enum(['increasing', 'decreasing', 'stable']),
    avgDailyRevenue: int(),
  }),
);

const Figures = z.object({ revenue: int(), orders: int(), avgOrderValue: int(), customers: int(), reservations: int() });
export const PeriodComparisonReport = named(
  'PeriodComparisonReport',
  z.object({
    object: z.literal('analytics.period_comparison'),
    current: Figures,
    previous: Figures,
    changes: z.object({ revenue: z.string(), orders: z.string(), avgOrderValue: z.string(), customers: z.string(), reservations: z.string() }),
  }),
);
