import type { Selectable } from 'kysely';

/** Money given back on a payment (the `re_` records): append-only; the payment is never edited. */
export interface PaymentRefundsTable {
  id: string;
  restaurant_id: string;
  payment_id: string;
  order_id: string;
  livemode: number;
  amount: number;
  reason: string | null;
  /** usr_… or key_… */
  refunded_by: string | null;
  /** YYYY-MM-DD, the restaurant's day it was given on */
  business_date: string;
  created: number;
}

/** A row as read. */
export type RefundRow = Selectable<PaymentRefundsTable>;
