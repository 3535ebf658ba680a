import { z } from 'zod';
import type { CheckBalance } from '../model/payments.ts';
import type { OrderRow } from '../db/tables/orders.table.ts';
import { named } from '../model/schemas.ts';
import { ItemShareSchema } from './payments.ts';

export const SeatBalanceSchema = named(
  'SeatBalance',
  z.object({
    /** the seat (1, 2, …); null for the lines nobody put on a seat */
    seat: z.number().int().nullable(),
    /** the sum of the seat's lines' net amounts (as the order's `seats`) */
    net_amount: z.number().int(),
    tax_amount: z.number().int(),
    /** what payments by items paid for the seat's lines, refunds taken off (money paid by amount belongs to no seat) */
    paid: z.number().int(),
    /** what paying the seat's unpaid lines records: their net amounts, or all the check owes when they are its last unpaid lines; 0 when nothing is unpaid */
    due: z.number().int(),
    /** the seat's lines not yet paid (ids): what `items` names to pay the seat */
    unpaid_items: z.array(z.string()),
  }),
);

export const EvenShareSchema = named(
  'EvenShare',
  z.object({
    /** 1 … ways */
    n: z.number().int(),
    amount: z.number().int(),
    /** what payments by amount have paid of this share (they count against the shares in order) */
    paid: z.number().int(),
    due: z.number().int(),
  }),
);

export const SplitItemSchema = named(
  'SplitItem',
  z.object({
    /** the order line (oi_…) */
    item: z.string(),
    /** how many equal shares it is paid in */
    parts: z.number().int(),
    net_amount: z.number().int(),
    /** Σ the shares paid */
    paid: z.number().int(),
    /** what is left of the line: net_amount − paid */
    left: z.number().int(),
    /** 1 … parts: floor(net_amount ÷ parts) each, the last share taking what rounding leaves (10.00 in 3: 3.33, 3.33, 3.34) */
    shares: z.array(z.object({ part: z.number().int(), amount: z.number().int(), paid: z.boolean() })),
    /** the share the next payment of the line pays (`item_shares: [{item, parts}]`); null once all are paid */
    next: z.object({ part: z.number().int(), amount: z.number().int() }).nullable(),
  }),
);

export const OrderBalanceSchema = named(
  'OrderBalance',
  z.object({
    object: z.literal('order_balance'),
    order: z.string(),
    currency: z.string(),
    /** the check's total (as the order's `total`) */
    total: z.number().int(),
    /** payments less refunds, tips aside */
    amount_paid: z.number().int(),
    /** refunds given after the check was completed (returns) */
    amount_returned: z.number().int(),
    /** total − amount_returned − amount_paid, never below 0 */
    amount_due: z.number().int(),
    payment_status: z.enum(['unpaid', 'partially_paid', 'paid']),
    seats: z.array(SeatBalanceSchema),
    /**
     * With `split=N`: N shares of what is left to pay by amount (amount_due plus what payments by
     * amount have paid, returns off), the last taking the rounding (5.00 in 3: 1.66, 1.66, 1.68).
     * Shares do not shrink as they are paid; Σ shares[].due = amount_due. null without `split`.
     */
    split: z
      .object({
        ways: z.number().int(),
        amount: z.number().int(),
        /** paid by amount so far, counted against the shares */
        paid: z.number().int(),
        shares: z.array(EvenShareSchema),
        /** the first share still owing: what "pay one share" records; null when none is */
        next: EvenShareSchema.nullable(),
      })
      .nullable(),
    /**
     * With `items=oi_…,oi_…`: what paying exactly those lines records (their net amounts, or all
     * that is due when they are the check's last unpaid lines); `oi_…:3` asks for the line's next
     * share of 3, listed in `item_shares` as the payment would record it. null without `items`.
     */
    items_charge: z.object({ items: z.array(z.string()), item_shares: z.array(ItemShareSchema), amount: z.number().int() }).nullable(),
    /**
     * The lines being paid in equal shares (and a line asked about as `oi_…:N`): every share with
     * its amount and whether it is paid; the shares add up to the line's net_amount exactly.
     */
    split_items: z.array(SplitItemSchema),
  }),
);
export type OrderBalance = z.output<typeof OrderBalanceSchema>;

export function presentOrderBalance(b: CheckBalance<OrderRow>): OrderBalance {
  return {
    object: 'order_balance',
    order: b.order.id,
    currency: b.order.currency,
    total: b.total,
    amount_paid: b.amount_paid,
    amount_returned: b.amount_returned,
    amount_due: b.amount_due,
    payment_status: b.payment_status,
    seats: b.seats.map((s) => ({ seat: s.seat, net_amount: s.net_amount, tax_amount: s.tax_amount, paid: s.paid, due: s.due, unpaid_items: s.unpaid_items })),
    split: b.split && { ways: b.split.ways, amount: b.split.amount, paid: b.split.paid, shares: b.split.shares.map((s) => ({ ...s })), next: b.split.next && { ...b.split.next } },
    items_charge: b.items_charge && {
      items: [...b.items_charge.items],
      item_shares: b.items_charge.item_shares.map((x) => ({ item: x.item, parts: x.parts, part: x.part, amount: x.amount })),
      amount: b.items_charge.amount,
    },
    split_items: b.split_items.map((l) => ({
      item: l.item,
      parts: l.parts,
      net_amount: l.net_amount,
      paid: l.paid,
      left: l.left,
      shares: l.shares.map((x) => ({ part: x.part, amount: x.amount, paid: x.paid })),
      next: l.next && { part: l.next.part, amount: l.next.amount },
    })),
  };
}
