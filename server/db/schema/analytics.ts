import type { AnalyticsCustomerTotalsTable } from '../tables/analytics-customer-totals.table.ts';
import type { AnalyticsDailyTable } from '../tables/analytics-daily.table.ts';
import type { AnalyticsItemDailyTable } from '../tables/analytics-item-daily.table.ts';
import type { AnalyticsOrderFactsTable } from '../tables/analytics-order-facts.table.ts';
import type { InventoryItemsTable } from '../tables/inventory-items.table.ts';
import type { ShiftsTable } from '../tables/shifts.table.ts';

/** Tables of the analytics feature: one line per `*.table.ts`. */
export interface AnalyticsTables {
  shifts: ShiftsTable;
  inventory_items: InventoryItemsTable;
  analytics_order_facts: AnalyticsOrderFactsTable;
  analytics_daily: AnalyticsDailyTable;
  analytics_item_daily: AnalyticsItemDailyTable;
  analytics_customer_totals: AnalyticsCustomerTotalsTable;
}
