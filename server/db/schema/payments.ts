import type { CashCountsTable } from '../tables/cash-counts.table.ts';
import type { PaymentRefundsTable } from '../tables/payment-refunds.table.ts';
import type { PaymentsTable } from '../tables/payments.table.ts';

/** Tables of payments and the day's close (issue 25): all replicated, append-only. */
export interface PaymentsTables {
  payments: PaymentsTable;
  payment_refunds: PaymentRefundsTable;
  cash_counts: CashCountsTable;
}
