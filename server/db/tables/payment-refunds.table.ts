import type { Generated, Selectable } from 'kysely';

/** Money given back on a payment (the `re_` records): append-only; the payment is never edited. */
export interface PaymentRefundsTable {
  id: string;
  restaurant_id: string;
  payment_id: string;
  order_id: string;
  livemode: number;
  amount: number;
  /** ISO 4217, lowercase: the order's currency when the refund was given */
  currency: string;
  /** 1: given on a completed check (a return: lowers the day's net sales, the check stays closed) */
  is_return: Generated<number>;
  reason: string | null;
  /** usr_… or key_… */
  refunded_by: string | null;
  /** YYYY-MM-DD, the restaurant's day it was given on */
  business_date: string;
  created: number;
}

/** A row as read. */
export type RefundRow = Selectable<PaymentRefundsTable>;

declare module '../replication.ts' {
  /** replicated: rows are records, written through db/records.ts and carried by sync */
  interface ReplicatedTables {
    payment_refunds: true;
  }
}
