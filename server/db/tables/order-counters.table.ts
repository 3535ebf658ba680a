/** Local, per node: the last order number handed out per restaurant and business day. */
export interface OrderCountersTable {
  restaurant_id: string;
  /** YYYY-MM-DD in the restaurant's timezone */
  business_date: string;
  /** '' on the hub, the node's tag elsewhere (see domain/orders/order-number.ts) */
  node_tag: string;
  last: number;
}

declare module '../replication.ts' {
  /** local: this node's bookkeeping, outside the change log */
  interface LocalTables {
    order_counters: true;
  }
}
