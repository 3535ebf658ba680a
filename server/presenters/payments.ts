import { z } from 'zod';
import { named, unix } from '../model/schemas.ts';

export const RefundSchema = named(
  'Refund',
  z.object({
    object: z.literal('refund'),
    id: z.string(),
    payment: z.string(),
    order: z.string(),
    amount: z.number().int(),
    /** ISO 4217, lowercase: the currency the money went back in */
    currency: z.string(),
    /** true: given after the check was completed (a return: it lowers the day's net sales; the check stays closed) */
    is_return: z.boolean(),
    reason: z.string().nullable(),
    /** the staff member (usr_…) or API key (key_…) who gave it */
    refunded_by: z.string().nullable(),
    created: unix(),
  }),
);
export type Refund = z.output<typeof RefundSchema>;

export { PAYMENT_METHODS } from '../model/payments.ts';
import { PAYMENT_METHODS } from '../model/payments.ts';
import type { PaymentRow } from '../db/tables/payments.table.ts';
import type { RefundRow } from '../db/tables/payment-refunds.table.ts';
import type { ItemShare } from '../model/payments.ts';

export const ItemShareSchema = named(
  'ItemShare',
  z.object({
    /** the order line (oi_…) */
    item: z.string(),
    /** how many equal shares the line is split into */
    parts: z.number().int(),
    /** which of them (1 … parts) */
    part: z.number().int(),
    /** what that share is: the line's net_amount ÷ parts, the last share taking what rounding leaves */
    amount: z.number().int(),
  }),
);

export const PaymentSchema = named(
  'Payment',
  z.object({
    object: z.literal('payment'),
    id: z.string(),
    order: z.string(),
    /** what it paid of the bill, tips aside */
    amount: z.number().int(),
    /** ISO 4217, lowercase: the currency it was taken in */
    currency: z.string(),
    tip_amount: z.number().int(),
    /** the manager who approved a tip above the venue's bound, or its correction */
    tip_approved_by: z.string().nullable(),
    method: z.enum(PAYMENT_METHODS),
    /** cash: what the guest handed over, and what went back */
    tendered_amount: z.number().int().nullable(),
    change_amount: z.number().int().nullable(),
    /** the order lines (ids) it paid whole ([] when it paid only shares of lines); null for a payment by amount */
    items: z.array(z.string()).nullable(),
    /** the lines it paid one equal share of: which share (`part` of `parts`) and what that share was; [] when none */
    item_shares: z.array(ItemShareSchema),
    reference: z.string().nullable(),
    /** succeeded; partially_refunded or refunded once money went back */
    status: z.enum(['succeeded', 'partially_refunded', 'refunded']),
    amount_refunded: z.number().int(),
    /** what may still be refunded: amount − amount_refunded (tips aside); a refund without an amount gives back this */
    amount_refundable: z.number().int(),
    refunds: z.array(RefundSchema),
    /** who took it (usr_…), else the order's server; tips are counted for them */
    server: z.string().nullable(),
    /** who took the money: `recorded` (the venue's own terminal or till) */
    provider: z.string(),
    /** the restaurant's day it was taken on, YYYY-MM-DD */
    business_date: z.string(),
    livemode: z.boolean(),
    created: unix(),
  }),
);
export type Payment = z.output<typeof PaymentSchema>;

export function presentRefund(r: RefundRow): Refund {
  return {
    object: 'refund',
    id: r.id,
    payment: r.payment_id,
    order: r.order_id,
    amount: Number(r.amount),
    currency: r.currency,
    is_return: Number(r.is_return) === 1,
    reason: r.reason,
    refunded_by: r.refunded_by,
    created: Number(r.created),
  };
}

/** A payment as the API shows it, with the refunds given on it (oldest first). */
export function presentPayment(p: PaymentRow, refunds: RefundRow[]): Payment {
  const back = refunds.reduce((s, r) => s + Number(r.amount), 0);
  const amount = Number(p.amount);
  return {
    object: 'payment',
    id: p.id,
    order: p.order_id,
    amount,
    currency: p.currency,
    tip_amount: Number(p.tip_amount),
    tip_approved_by: p.tip_approved_by ?? null,
    method: p.method,
    tendered_amount: p.tendered_amount === null ? null : Number(p.tendered_amount),
    change_amount: p.change_amount === null ? null : Number(p.change_amount),
    items: p.items === null ? null : (JSON.parse(p.items) as string[]),
    item_shares: p.item_shares === null ? [] : (JSON.parse(p.item_shares) as ItemShare[]).map((x) => ({ item: x.item, parts: x.parts, part: x.part, amount: x.amount })),
    reference: p.reference,
    status: back <= 0 ? p.status : back >= amount ? 'refunded' : 'partially_refunded',
    amount_refunded: back,
    amount_refundable: Math.max(0, amount - back),
    refunds: refunds.map(presentRefund),
    server: p.server_id,
    provider: p.provider,
    business_date: p.business_date,
    livemode: p.livemode === 1,
    created: Number(p.created),
  };
}
