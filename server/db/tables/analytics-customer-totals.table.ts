/** Local roll-up (not replicated), kept by domain/analytics/rollup.ts. */
export interface AnalyticsCustomerTotalsTable {
  customer_id: string;
  restaurant_id: string;
  visits: number;
  total_spent: number;
}
