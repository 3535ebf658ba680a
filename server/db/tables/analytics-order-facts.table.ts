/** Local roll-up (not replicated), kept by domain/analytics/rollup.ts. */
/** What one counted order contributes; taken back out when the order changes. */
export interface AnalyticsOrderFactsTable {
  order_id: string;
  restaurant_id: string;
  /** local sale date YYYY-MM-DD */
  day: string;
  /** local hour 0–23 */
  hour: number;
  /** 0 = Sunday … 6 = Saturday */
  weekday: number;
  type: string;
  revenue: number;
  customer_id: string | null;
  /** JSON [[menu_item_id, quantity, revenue], …], one entry per menu item */
  items: string;
}

declare module '../replication.ts' {
  /** local: this node's bookkeeping, outside the change log */
  interface LocalTables {
    analytics_order_facts: true;
  }
}
