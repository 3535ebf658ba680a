import type { Selectable } from 'kysely';

/** A payment recorded against an order (the `pay_` records): never deleted; only its tip may be corrected. */
export interface PaymentsTable {
  id: string;
  restaurant_id: string;
  order_id: string;
  livemode: number;
  method: 'cash' | 'card' | 'other';
  /** who charged it; 'recorded' for the venue's own terminal or till (payments/providers.ts) */
  provider: string;
  /** what it pays of the bill, tips aside */
  amount: number;
  /** the tip: may be corrected (with a manager's approval) until the day's Z report is printed */
  tip_amount: number;
  /** the manager who approved a tip above the venue's bound, or its correction */
  tip_approved_by: string | null;
  /** ISO 4217, lowercase: the order's currency when it was taken */
  currency: string;
  tendered_amount: number | null;
  change_amount: number | null;
  /** JSON string[] of the order line ids it paid whole ([] when it paid only shares); null for a payment by amount */
  items: string | null;
  /**
   * JSON ItemShare[] ({item, parts, part, amount}): the lines it paid one equal share of (a bottle
   * split three ways), which share and its amount; null when it paid no share
   */
  item_shares: string | null;
  reference: string | null;
  status: 'succeeded';
  server_id: string | null;
  /** YYYY-MM-DD, the restaurant's day it was taken on */
  business_date: string;
  created: number;
}

/** A row as read. */
export type PaymentRow = Selectable<PaymentsTable>;

declare module '../replication.ts' {
  /** replicated: rows are records, written through db/records.ts and carried by sync */
  interface ReplicatedTables {
    payments: true;
  }
}
