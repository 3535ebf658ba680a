import { z } from 'zod';
import { CASH_KINDS } from '../../db/tables/cash-counts.table.ts';
import { f } from '../../model/fields.ts';
import { listParams, q } from '../../http/query.ts';
import { managerPin, requiredEnum } from '../orders/schema.ts';
import { PAYMENT_METHODS } from '../../presenters/payments.ts';

/** the most equal shares a line is split into */
export const MAX_PARTS = 20;

export const CreatePayment = z.object({
  method: requiredEnum(PAYMENT_METHODS),
  /** ids of the order's lines (`items[].id`): pays exactly those, e.g. one seat's */
  items: z.array(f.id()).min(1, 'must name at least one line').max(100).optional(),
  /**
   * lines shared by several guests, each paid one equal share at a time: `{item: "oi_…", parts: 3}`
   * pays the line's next unpaid share of 3 (the server works out which and how much: `GET
   * /v1/orders/{id}/balance?items=oi_…:3`). A line split keeps its number of parts until every
   * share is paid. With or without `items`, not with `amount`.
   */
  item_shares: z
    .array(z.object({ item: f.id(), parts: z.number().int().min(2, 'must be at least 2').max(MAX_PARTS, `must be at most ${MAX_PARTS}`) }))
    .min(1, 'must name at least one line')
    .max(20)
    .optional(),
  /** a part of the bill: an even split, or any amount up to what is still due */
  amount: f.money().optional(),
  /** above the venue's max_tip_percent of amount, a manager approves it (a server sends manager_pin) */
  tip_amount: f.money().max(99_999_999, 'is more than any tip').optional(),
  manager_pin: managerPin(),
  /** cash: what the guest handed over; change_amount = tendered − amount − tip */
  tendered_amount: f.money().nullable().optional(),
  /** the terminal slip's number, the card's last four digits… */
  reference: z.string().trim().max(100).nullable().optional(),
});

export const AdjustTip = z.object({
  tip_amount: f.money().max(99_999_999, 'is more than any tip'),
  manager_pin: managerPin(),
});

export const RefundPayment = z.object({
  /** at most what is left of the payment (tips aside); all of it when left out */
  amount: f.money().optional(),
  reason: z.string().trim().max(500).nullable().optional(),
});

export const ListPayments = z.object({
  ...listParams(),
  order: f.id().optional(),
  /** the restaurant's business day the payment was taken on */
  date: q.date().optional(),
  method: z.enum(PAYMENT_METHODS).optional(),
  /** the staff member (usr_…) who took it */
  server: f.id().optional(),
  'created.gte': q.int({ min: 0 }).optional(),
  'created.lte': q.int({ min: 0 }).optional(),
});

export const CreateCashCount = z.object({
  /** the business day counted; today's (the restaurant's) when left out */
  date: q.date().optional(),
  /** count (the default): the cash counted; opening_float: what the drawer started with; paid_in / paid_out: cash put in or taken out */
  kind: z.enum(CASH_KINDS).optional(),
  counted_amount: f.money(),
  note: z.string().trim().max(500).nullable().optional(),
});

export const DayCloseQuery = z.object({ date: q.date() });

export const PrintDayClose = z.object({
  date: q.date(),
  /** a printer id; every receipt printer when left out */
  printer: f.id().optional(),
});

export const BalanceQuery = z.object({
  /** an even split in N ways (2 to 20): the shares of the bill and which are paid */
  split: q.int({ min: 2, max: 20 }).optional(),
  /**
   * lines a guest pays for (comma-separated oi_ ids): what paying exactly those records; `oi_…:3`
   * asks for the line's next share of 3 (as `item_shares`), and lists its shares in `split_items`
   */
  items: z
    .string()
    .max(3000)
    .transform((v) => v.split(',').map((x) => x.trim()).filter(Boolean))
    .pipe(
      z
        .array(z.string().regex(/^[^:]{1,64}(:\d{1,2})?$/, 'must be a line id, or a line id and its number of shares (oi_…:3)'))
        .min(1, 'must name at least one line')
        .max(100),
    )
    .transform((v, ctx) => {
      const asked = { items: [] as string[], shares: [] as { item: string; parts: number }[] };
      for (const x of v) {
        const [item, parts] = x.split(':') as [string, string | undefined];
        if (parts === undefined) asked.items.push(item);
        else if (Number(parts) < 2 || Number(parts) > MAX_PARTS) ctx.addIssue({ code: 'custom', message: `shares of a line must be 2 to ${MAX_PARTS}` });
        else asked.shares.push({ item, parts: Number(parts) });
      }
      return asked;
    })
    .optional(),
});
