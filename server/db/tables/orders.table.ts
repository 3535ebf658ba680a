import type { Generated, Selectable } from 'kysely';
import type { OrderStatus, OrderType } from '../../model/orders.ts';

export interface OrdersTable {
  id: string;
  restaurant_id: string;
  order_number: string;
  /** YYYY-MM-DD in the restaurant's timezone when the order was created */
  business_date: string;
  type: OrderType;
  status: OrderStatus;
  source: string;
  table_id: string | null;
  server_id: string | null;
  customer_id: string | null;
  customer_name: string | null;
  customer_phone: string | null;
  customer_email: string | null;
  delivery_address: string | null;
  estimated_time_minutes: number | null;
  subtotal: number;
  tax_amount: number;
  discount_amount: number;
  tip_amount: number;
  delivery_fee: number;
  total: number;
  /** 1: line prices include their tax (the restaurant's setting when the order was made) */
  prices_include_tax: Generated<number>;
  /** the check-level part of discount_amount; the rest is the lines' own discounts */
  check_discount_amount: Generated<number>;
  discount_reason: string | null;
  /** the manager who approved the check discount (a staff user id) */
  discount_approved_by: string | null;
  /** payments less refunds, tips aside; made again from them when sync brings one */
  amount_paid: number;
  /** refunds given after the check was completed (returns): the check owes nothing for them */
  amount_returned: Generated<number>;
  currency: string;
  notes: string | null;
  placed_at: number | null;
  completed_at: number | null;
  cancelled_at: number | null;
  cancel_reason: string | null;
  /** the manager who approved cancelling a check with lines at the stations or money taken */
  cancel_approved_by: string | null;
  /** set when this check was merged into another (it is then cancelled): that order's id */
  merged_into: string | null;
  /** the party's size, asked when the table was opened; null when nobody said */
  covers: number | null;
  is_self_service: number;
  is_virtual_table: number;
  virtual_table_label: string | null;
  qr_code_id: string | null;
  livemode: number;
  created: number;
  updated: number;
}

/** A row as read. */
export type OrderRow = Selectable<OrdersTable>;

declare module '../replication.ts' {
  /** replicated: rows are records, written through db/records.ts and carried by sync */
  interface ReplicatedTables {
    orders: true;
  }
}
