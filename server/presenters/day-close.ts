import { z } from 'zod';
import type { Selectable } from 'kysely';
import { CASH_KINDS, type CashCountsTable } from '../db/tables/cash-counts.table.ts';
import { PAYMENT_METHODS, type DayClose } from '../model/payments.ts';
import { named, unix } from '../model/schemas.ts';

const int = () => z.number().int();
const tally = () => z.object({ count: int(), amount: int() });

export const DayCloseSchema = named(
  'DayClose',
  z.object({
    object: z.literal('day_close'),
    /** the restaurant's business day, YYYY-MM-DD */
    date: z.string(),
    currency: z.string(),
    livemode: z.boolean(),
    /** the venue's menu prices include their tax (gross and net are then amounts with tax inside) */
    prices_include_tax: z.boolean(),
    /**
     * The day's checks (opened that day, cancelled ones aside), from the same line bills as the
     * checks: gross − discounts − comps = net; Σ by_tax_rate.base = net; Σ by_tax_rate.tax = tax;
     * net_excl_tax + tax + delivery_fees + order_tips = total (what the checks billed);
     * total − refunds (the day's returns) = net_after_returns.
     */
    sales: z.object({
      orders: int(),
      /** the lines at menu prices, voided lines excluded (voids are listed apart) */
      gross: int(),
      /** line discounts (comps aside) and check discounts */
      discounts: int(),
      /** lines given away whole */
      comps: int(),
      net: int(),
      tax: int(),
      net_excl_tax: int(),
      by_tax_rate: z.array(z.object({ rate: z.number(), base: int(), tax: int(), net_excl_tax: int() })),
      delivery_fees: int(),
      order_tips: int(),
      total: int(),
      /** returns: refunds given this day on completed checks */
      refunds: int(),
      net_after_returns: int(),
    }),
    /** how many discounts (a discounted line, a discounted check) and their amount */
    discounts: tally(),
    comps: tally(),
    /** voided lines at their menu price: billed nowhere */
    voids: tally(),
    /** every refund given this day; returns are those given on completed checks */
    refunds: tally().extend({ returns: tally() }),
    /** payments taken this day, refunds given this day: taken − refunded = net = Σ by_method.amount */
    payments: z.object({ count: int(), taken: int(), refunded: int(), net: int() }),
    /** payments by method; amount has the day's refunds netted */
    by_method: z.array(z.object({ method: z.enum(PAYMENT_METHODS), count: int(), amount: int(), tip_amount: int(), refunded_amount: int() })),
    total_tips: int(),
    tips_by_server: z.array(z.object({ server: z.string().nullable(), name: z.string().nullable(), count: int(), tip_amount: int() })),
    /** the drawer: opening float + cash sales (refunds netted) + cash tips + paid in − paid out = expected, against the last count */
    cash: z.object({
      opening_float: int(),
      sales: int(),
      tips: int(),
      paid_in: int(),
      paid_out: int(),
      expected: int(),
      counted: int().nullable(),
      over_short: int().nullable(),
      counted_at: unix().nullable(),
    }),
    /** checks of the day still owing, whatever their status (a completed check owing after a sync included) */
    open_orders: z.object({
      count: int(),
      amount_due: int(),
      orders: z.array(z.object({ id: z.string(), order_number: z.string(), table: z.string().nullable(), status: z.string(), total: int(), amount_due: int() })),
    }),
    /** checks cancelled with lines at the stations: what they came to, money kept on them, and who approved */
    cancellations: z.object({
      count: int(),
      amount: int(),
      orders: z.array(
        z.object({
          id: z.string(),
          order_number: z.string(),
          table: z.string().nullable(),
          amount: int(),
          amount_paid: int(),
          reason: z.string().nullable(),
          approved_by: z.string().nullable(),
          approved_by_name: z.string().nullable(),
        }),
      ),
    }),
  }),
);
export type DayCloseJson = z.output<typeof DayCloseSchema>;

export const presentDayClose = (d: DayClose): DayCloseJson => ({ object: 'day_close', ...d });

export const CashCountSchema = named(
  'CashCount',
  z.object({
    object: z.literal('cash_count'),
    id: z.string(),
    date: z.string(),
    /** a count of the drawer, the float it opened with, or cash paid in or out */
    kind: z.enum(CASH_KINDS),
    counted_amount: int(),
    note: z.string().nullable(),
    counted_by: z.string().nullable(),
    livemode: z.boolean(),
    created: unix(),
  }),
);

export function presentCashCount(r: Selectable<CashCountsTable>): z.output<typeof CashCountSchema> {
  return {
    object: 'cash_count',
    id: r.id,
    date: r.business_date,
    kind: r.kind,
    counted_amount: Number(r.counted_amount),
    note: r.note,
    counted_by: r.counted_by,
    livemode: r.livemode === 1,
    created: Number(r.created),
  };
}
