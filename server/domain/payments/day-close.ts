import type { Executor } from '../../db/records.ts';
import type { Actor } from '../../services.ts';
import { modeOf } from '../modes.ts';
import { catalogueOf } from '../menu/catalogue.ts';
import { OPEN_STATUSES } from '../orders/state-machine.ts';
import { PAYMENT_METHODS } from './methods.ts';

export interface MethodTotal {
  method: (typeof PAYMENT_METHODS)[number];
  count: number;
  /** payments less the refunds given that day on payments of this method */
  amount: number;
  tip_amount: number;
  refunded_amount: number;
}

/** One business day's figures: what the close shows and the Z report prints. */
export interface DayClose {
  date: string;
  currency: string;
  livemode: boolean;
  by_method: MethodTotal[];
  total_amount: number;
  total_tips: number;
  tips_by_server: { server: string | null; name: string | null; count: number; tip_amount: number }[];
  refunds: { count: number; amount: number };
  sales: { orders: number; subtotal: number; tax_amount: number; discount_amount: number; total: number; by_tax_rate: { rate: number; sales: number; tax_amount: number }[] };
  discounts: { count: number; amount: number };
  comps: { count: number; amount: number };
  voids: { count: number; amount: number };
  open_orders: { count: number; amount_due: number; orders: { id: string; order_number: string; table: string | null; total: number; amount_due: number }[] };
  cash: { expected: number; counted: number | null; over_short: number | null; counted_at: number | null };
}

/**
 * The close of one business day (the restaurant's own calendar day, as orders carry it):
 * money taken by method with the day's refunds netted, tips and whose they are, the day's
 * sales and tax by rate, the checks still open, and the cash the drawer should hold against
 * the last count. Payments count on the day they were taken, refunds on the day given.
 */
export async function dayClose(db: Executor, actor: Pick<Actor, 'restaurantId' | 'livemode'>, date: string): Promise<DayClose> {
  const rid = actor.restaurantId;
  const mode = modeOf(actor);
  const { restaurant } = await catalogueOf(db, rid);
  const pays = await db
    .selectFrom('payments')
    .select(['method', 'amount', 'tip_amount', 'server_id'])
    .where('restaurant_id', '=', rid)
    .where('livemode', '=', mode)
    .where('business_date', '=', date)
    .execute();
  const refunds = await db
    .selectFrom('payment_refunds as r')
    .innerJoin('payments as p', 'p.id', 'r.payment_id')
    .select(['p.method', 'r.amount'])
    .where('r.restaurant_id', '=', rid)
    .where('r.livemode', '=', mode)
    .where('r.business_date', '=', date)
    .execute();

  const by_method: MethodTotal[] = PAYMENT_METHODS.map((method) => {
    const mine = pays.filter((p) => p.method === method);
    const back = refunds.filter((r) => r.method === method).reduce((s, r) => s + Number(r.amount), 0);
    return {
      method,
      count: mine.length,
      amount: mine.reduce((s, p) => s + Number(p.amount), 0) - back,
      tip_amount: mine.reduce((s, p) => s + Number(p.tip_amount), 0),
      refunded_amount: back,
    };
  });

  const tips = new Map<string | null, { count: number; tip_amount: number }>();
  for (const p of pays) {
    const t = tips.get(p.server_id) ?? { count: 0, tip_amount: 0 };
    t.count++;
    t.tip_amount += Number(p.tip_amount);
    tips.set(p.server_id, t);
  }
  const serverIds = [...tips.keys()].filter((s): s is string => s !== null);
  const names = new Map(
    serverIds.length ? (await db.selectFrom('users').select(['id', 'name']).where('restaurant_id', '=', rid).where('id', 'in', serverIds).execute()).map((u) => [u.id, u.name]) : [],
  );
  const tips_by_server = [...tips]
    .map(([server, t]) => ({ server, name: server ? (names.get(server) ?? null) : null, ...t }))
    .sort((a, b) => b.tip_amount - a.tip_amount || String(a.name).localeCompare(String(b.name)));

  const orders = await db
    .selectFrom('orders')
    .select(['id', 'order_number', 'status', 'table_id', 'subtotal', 'tax_amount', 'discount_amount', 'total', 'amount_paid'])
    .where('restaurant_id', '=', rid)
    .where('livemode', '=', mode)
    .where('business_date', '=', date)
    .where('status', 'not in', ['draft', 'cancelled'])
    .execute();
  const sum = (k: 'subtotal' | 'tax_amount' | 'discount_amount' | 'total') => orders.reduce((s, o) => s + Number(o[k]), 0);
  const rates = await db
    .selectFrom('order_items as i')
    .innerJoin('orders as o', 'o.id', 'i.order_id')
    .select(['i.tax_rate', (eb) => eb.fn.sum<number>('i.line_subtotal').as('sales'), (eb) => eb.fn.sum<number>('i.tax_amount').as('tax')])
    .where('o.restaurant_id', '=', rid)
    .where('o.livemode', '=', mode)
    .where('o.business_date', '=', date)
    .where('o.status', 'not in', ['draft', 'cancelled'])
    // a voided line was billed nowhere
    .where('i.voided_at', 'is', null)
    .groupBy('i.tax_rate')
    .orderBy('i.tax_rate')
    .execute();

  const open = orders
    .filter((o) => OPEN_STATUSES.includes(o.status) && Number(o.total) - Number(o.amount_paid) > 0)
    .map((o) => ({ id: o.id, order_number: o.order_number, table: o.table_id, total: Number(o.total), amount_due: Number(o.total) - Number(o.amount_paid) }));

  const cashIn = by_method.find((m) => m.method === 'cash')!;
  // tips paid in cash stay in the drawer with the bill; change given has already gone back out
  const expected = cashIn.amount + cashIn.tip_amount;
  const count = await db
    .selectFrom('cash_counts')
    .select(['counted_amount', 'created'])
    .where('restaurant_id', '=', rid)
    .where('livemode', '=', mode)
    .where('business_date', '=', date)
    .orderBy('created', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  const counted = count ? Number(count.counted_amount) : null;

  const discounted = orders.filter((o) => Number(o.discount_amount) > 0);
  // lines taken back (voids) and lines given away whole (comps: a discount of the whole line)
  const lines = await db
    .selectFrom('order_items as i')
    .innerJoin('orders as o', 'o.id', 'i.order_id')
    .select(['i.line_subtotal', 'i.discount_amount', 'i.voided_at'])
    .where('o.restaurant_id', '=', rid)
    .where('o.livemode', '=', mode)
    .where('o.business_date', '=', date)
    .where('o.status', '!=', 'draft')
    .where((eb) => eb.or([eb('i.voided_at', 'is not', null), eb('i.discount_amount', '>', 0)]))
    .execute();
  const voided = lines.filter((l) => l.voided_at !== null);
  const comped = lines.filter((l) => l.voided_at === null && Number(l.line_subtotal) > 0 && Number(l.discount_amount) >= Number(l.line_subtotal));
  return {
    date,
    currency: restaurant.currency,
    livemode: mode === 1,
    by_method,
    total_amount: by_method.reduce((s, m) => s + m.amount, 0),
    total_tips: by_method.reduce((s, m) => s + m.tip_amount, 0),
    tips_by_server,
    refunds: { count: refunds.length, amount: refunds.reduce((s, r) => s + Number(r.amount), 0) },
    sales: {
      orders: orders.length,
      subtotal: sum('subtotal'),
      tax_amount: sum('tax_amount'),
      discount_amount: sum('discount_amount'),
      total: sum('total'),
      by_tax_rate: rates.map((r) => ({ rate: Number(r.tax_rate), sales: Number(r.sales), tax_amount: Number(r.tax) })),
    },
    discounts: { count: discounted.length, amount: discounted.reduce((s, o) => s + Number(o.discount_amount), 0) },
    comps: { count: comped.length, amount: comped.reduce((s, l) => s + Number(l.discount_amount), 0) },
    voids: { count: voided.length, amount: voided.reduce((s, l) => s + Number(l.line_subtotal), 0) },
    open_orders: { count: open.length, amount_due: open.reduce((s, o) => s + o.amount_due, 0), orders: open },
    cash: { expected, counted, over_short: counted === null ? null : counted - expected, counted_at: count ? Number(count.created) : null },
  };
}
