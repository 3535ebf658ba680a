/** How a guest pays: cash at the till, a card on the venue's terminal, anything else (a voucher…). */
export const PAYMENT_METHODS = ['cash', 'card', 'other'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export type PaymentStatus = 'unpaid' | 'partially_paid' | 'paid';

/**
 * What the guest still owes and where the bill stands. `amount_paid` is payments less
 * refunds, tips aside; `amount_returned` the refunds given after the check was completed
 * (returns: the check owes nothing for them). More paid than owed is possible only when both
 * sides of a sync took the same bill while apart (listed as an overpayment conflict); the
 * amount due is never below 0.
 */
export function balanceOf(order: { total: number; amount_paid: number; amount_returned?: number }): {
  amount_paid: number;
  amount_due: number;
  amount_returned: number;
  payment_status: PaymentStatus;
} {
  const paid = Number(order.amount_paid);
  const returned = Number(order.amount_returned ?? 0);
  const owed = Number(order.total) - returned;
  const due = Math.max(0, owed - paid);
  const status: PaymentStatus = due === 0 ? 'paid' : paid <= 0 ? 'unpaid' : 'partially_paid';
  return { amount_paid: paid, amount_due: due, amount_returned: returned, payment_status: status };
}

export interface SeatBalance {
  seat: number | null;
  net_amount: number;
  tax_amount: number;
  paid: number;
  due: number;
  unpaid_items: string[];
}

export interface EvenShare {
  n: number;
  amount: number;
  paid: number;
  due: number;
}

/** A check's balance by seat and share; `Order` is the order's row as the database gives it. */
export interface CheckBalance<Order> {
  order: Order;
  total: number;
  amount_paid: number;
  amount_returned: number;
  amount_due: number;
  payment_status: PaymentStatus;
  seats: SeatBalance[];
  split: { ways: number; amount: number; paid: number; shares: EvenShare[]; next: EvenShare | null } | null;
  /** with `items`: what paying exactly those lines (and shares) records (a guest's "I had these two") */
  items_charge: { items: string[]; item_shares: ItemShare[]; amount: number } | null;
  /** the lines being paid in shares, and those asked about in shares (`items=oi_x:3`) */
  split_items: LineSplit[];
}

/** One equal share of a line a payment paid: share `part` of `parts`, and what it was. */
export interface ItemShare {
  item: string;
  parts: number;
  part: number;
  amount: number;
}

/** Where a line split in `parts` stands: each share, paid or not, and what is left of the line. */
export interface LineSplit {
  item: string;
  parts: number;
  net_amount: number;
  /** Σ the shares paid */
  paid: number;
  /** net_amount − paid, never below 0 */
  left: number;
  shares: { part: number; amount: number; paid: boolean }[];
  /** the share the next payment of this line pays (the lowest not paid); null once all are */
  next: { part: number; amount: number } | null;
}

export interface MethodTotal {
  method: PaymentMethod;
  count: number;
  /** payments less the refunds given that day on payments of this method */
  amount: number;
  tip_amount: number;
  refunded_amount: number;
}

/** A count and an amount, as the close tallies discounts, comps, voids and refunds. */
export interface Tally {
  count: number;
  amount: number;
}

/**
 * One business day's figures: what the close shows and the Z report prints. The identities
 * it satisfies (docs/operators/payments.md, "The close"):
 * - sales.gross − sales.discounts − sales.comps = sales.net (at menu prices: tax inside on a
 *   venue whose prices include it, on top otherwise);
 * - Σ by_tax_rate.tax = sales.tax; Σ by_tax_rate.base = sales.net; net_excl_tax = net − tax
 *   where prices include tax, = net where tax is added;
 * - sales.net_excl_tax + sales.tax + delivery_fees + order_tips = sales.total, what the day's
 *   checks billed; sales.total − sales.refunds = sales.net_after_returns;
 * - payments.taken − payments.refunded = payments.net = Σ by_method.amount.
 */
export interface DayClose {
  date: string;
  currency: string;
  livemode: boolean;
  prices_include_tax: boolean;
  sales: {
    orders: number;
    gross: number;
    discounts: number;
    comps: number;
    net: number;
    tax: number;
    net_excl_tax: number;
    by_tax_rate: { rate: number; base: number; tax: number; net_excl_tax: number }[];
    delivery_fees: number;
    order_tips: number;
    total: number;
    /** returns: refunds given this day on completed checks */
    refunds: number;
    net_after_returns: number;
  };
  discounts: Tally;
  comps: Tally;
  voids: Tally;
  /** every refund given this day (returns and corrections of an open check's payment) */
  refunds: Tally & { returns: Tally };
  payments: { count: number; taken: number; refunded: number; net: number };
  by_method: MethodTotal[];
  total_tips: number;
  tips_by_server: { server: string | null; name: string | null; count: number; tip_amount: number }[];
  cash: {
    opening_float: number;
    /** cash taken less cash refunded */
    sales: number;
    tips: number;
    paid_in: number;
    paid_out: number;
    expected: number;
    counted: number | null;
    over_short: number | null;
    counted_at: number | null;
  };
  open_orders: { count: number; amount_due: number; orders: { id: string; order_number: string; table: string | null; status: string; total: number; amount_due: number }[] };
  cancellations: {
    count: number;
    amount: number;
    orders: { id: string; order_number: string; table: string | null; amount: number; amount_paid: number; reason: string | null; approved_by: string | null; approved_by_name: string | null }[];
  };
}
