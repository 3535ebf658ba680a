/** Local roll-up (not replicated), kept by domain/analytics/rollup.ts. */
export interface AnalyticsDailyTable {
  restaurant_id: string;
  day: string;
  hour: number;
  type: string;
  weekday: number;
  orders: number;
  revenue: number;
}

declare module '../replication.ts' {
  /** local: this node's bookkeeping, outside the change log */
  interface LocalTables {
    analytics_daily: true;
  }
}
