import { z } from 'zod';
import type { Selectable } from 'kysely';
import type { CashCountsTable } from '../db/tables/cash-counts.table.ts';
import type { DayClose } from '../domain/payments/day-close.ts';
import { named, unix } from '../http/schemas.ts';
import { PAYMENT_METHODS } from '../domain/payments/methods.ts';

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
    /** payments by method; amount has the day's refunds netted */
    by_method: z.array(z.object({ method: z.enum(PAYMENT_METHODS), count: int(), amount: int(), tip_amount: int(), refunded_amount: int() })),
    total_amount: int(),
    total_tips: int(),
    tips_by_server: z.array(z.object({ server: z.string().nullable(), name: z.string().nullable(), count: int(), tip_amount: int() })),
    refunds: tally(),
    sales: z.object({
      orders: int(),
      subtotal: int(),
      tax_amount: int(),
      discount_amount: int(),
      total: int(),
      by_tax_rate: z.array(z.object({ rate: z.number(), sales: int(), tax_amount: int() })),
    }),
    discounts: tally(),
    comps: tally(),
    voids: tally(),
    /** checks of the day still owing: close them before the day */
    open_orders: z.object({
      count: int(),
      amount_due: int(),
      orders: z.array(z.object({ id: z.string(), order_number: z.string(), table: z.string().nullable(), total: int(), amount_due: int() })),
    }),
    /** what the drawer should hold (cash taken and cash tips, less cash refunds) against the last count */
    cash: z.object({ expected: int(), counted: int().nullable(), over_short: int().nullable(), counted_at: unix().nullable() }),
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
    counted_amount: Number(r.counted_amount),
    note: r.note,
    counted_by: r.counted_by,
    livemode: r.livemode === 1,
    created: Number(r.created),
  };
}
