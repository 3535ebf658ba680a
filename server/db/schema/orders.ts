import type { DeliveriesTable } from '../tables/deliveries.table.ts';
import type { OrderCountersTable } from '../tables/order-counters.table.ts';
import type { QrCodesTable } from '../tables/qr-codes.table.ts';

/** Tables of the orders feature: one line per `*.table.ts`. */
export interface OrdersTables {
  /** local bookkeeping, written directly (not a replicated record) */
  order_counters: OrderCountersTable;
  qr_codes: QrCodesTable;
  deliveries: DeliveriesTable;
}
