/** Local roll-up (not replicated), kept by domain/analytics/rollup.ts. */
export interface AnalyticsCustomerTotalsTable {
  customer_id: string;
  restaurant_id: string;
  visits: number;
  total_spent: number;
}

declare module '../replication.ts' {
  /** local: this node's bookkeeping, outside the change log */
  interface LocalTables {
    analytics_customer_totals: true;
  }
}
