/** Local roll-up (not replicated), kept by domain/analytics/rollup.ts. */
export interface AnalyticsItemDailyTable {
  restaurant_id: string;
  day: string;
  menu_item_id: string;
  quantity: number;
  revenue: number;
  /** orders that had this item (an order falls on one day, so daily counts add up) */
  orders: number;
}

declare module '../replication.ts' {
  /** local: this node's bookkeeping, outside the change log */
  interface LocalTables {
    analytics_item_daily: true;
  }
}
