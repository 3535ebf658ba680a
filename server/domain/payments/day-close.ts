import type { Executor } from '../../db/records.ts';
import type { OrderItemRow } from '../../db/tables/order-items.table.ts';
import type { Actor } from '../../services.ts';
import { modeOf } from '../modes.ts';
import { catalogueOf } from '../menu/catalogue.ts';
import { lineBills } from '../../model/totals.ts';
import { balanceOf, PAYMENT_METHODS, type DayClose, type MethodTotal, type Tally } from '../../model/payments.ts';

const tally = (): Tally => ({ count: 0, amount: 0 });

/**
 * The close of one business day (the restaurant's own calendar day, as orders carry it).
 * Sales count on the day their check was opened; payments on the day they were taken,
 * refunds and returns on the day they were given. Every amount comes from the same line
 * bills as the checks themselves (model/totals.ts), so the close ties out to the cent with
 * what the checks, receipts and payments say.
 */
export async function dayClose(db: Executor, actor: Pick<Actor, 'restaurantId' | 'livemode'>, date: string): Promise<DayClose> {
  const rid = actor.restaurantId;
  const mode = modeOf(actor);
  const { restaurant, pricesIncludeTax } = await catalogueOf(db, rid);

  const orders = await db
    .selectFrom('orders')
    .selectAll()
    .where('restaurant_id', '=', rid)
    .where('livemode', '=', mode)
    .where('business_date', '=', date)
    .where('status', '!=', 'draft')
    .execute();
  // in the order they were opened, the same on every node and database (no collation in it)
  orders.sort((a, b) => Number(a.created) - Number(b.created) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const lines = await linesOf(db, orders.map((o) => o.id));
  const live = orders.filter((o) => o.status !== 'cancelled');

  const s = { gross: 0, discounts: 0, comps: 0, net: 0, tax: 0, net_excl_tax: 0, delivery_fees: 0, order_tips: 0 };
  const discounts = tally();
  const comps = tally();
  const voids = tally();
  const rates = new Map<number, { rate: number; base: number; tax: number; net_excl_tax: number }>();
  for (const o of live) {
    const items = lines.get(o.id) ?? [];
    const bills = lineBills(items, o);
    if (Number(o.check_discount_amount) > 0) discounts.count++;
    items.forEach((l, i) => {
      const b = bills[i]!;
      if (l.voided_at) {
        voids.count++;
        voids.amount += Number(l.line_subtotal);
        return;
      }
      s.gross += b.gross;
      if (b.comped) {
        comps.count++;
        comps.amount += b.discount;
      } else if (b.discount > 0) {
        discounts.count++;
        discounts.amount += b.discount;
      }
      discounts.amount += b.check_discount;
      s.tax += b.tax;
      const excl = o.prices_include_tax ? b.base - b.tax : b.base;
      s.net_excl_tax += excl;
      const r = rates.get(b.tax_rate) ?? { rate: b.tax_rate, base: 0, tax: 0, net_excl_tax: 0 };
      r.base += b.base;
      r.tax += b.tax;
      r.net_excl_tax += excl;
      rates.set(b.tax_rate, r);
    });
    s.delivery_fees += Number(o.delivery_fee);
    s.order_tips += Number(o.tip_amount);
  }
  s.discounts = discounts.amount;
  s.comps = comps.amount;
  s.net = s.gross - s.discounts - s.comps;

  const pays = await db
    .selectFrom('payments')
    .select(['method', 'amount', 'tip_amount', 'server_id'])
    .where('restaurant_id', '=', rid)
    .where('livemode', '=', mode)
    .where('business_date', '=', date)
    .execute();
  const refundRows = await db
    .selectFrom('payment_refunds as r')
    .innerJoin('payments as p', 'p.id', 'r.payment_id')
    .select(['p.method', 'r.amount', 'r.is_return'])
    .where('r.restaurant_id', '=', rid)
    .where('r.livemode', '=', mode)
    .where('r.business_date', '=', date)
    .execute();
  const refunds = { count: refundRows.length, amount: sumOf(refundRows), returns: tally() };
  for (const r of refundRows.filter((r) => Number(r.is_return) === 1)) {
    refunds.returns.count++;
    refunds.returns.amount += Number(r.amount);
  }

  const by_method: MethodTotal[] = PAYMENT_METHODS.map((method) => {
    const mine = pays.filter((p) => p.method === method);
    const back = sumOf(refundRows.filter((r) => r.method === method));
    return { method, count: mine.length, amount: sumOf(mine) - back, tip_amount: mine.reduce((t, p) => t + Number(p.tip_amount), 0), refunded_amount: back };
  });
  const taken = sumOf(pays);

  const cashIn = by_method.find((m) => m.method === 'cash')!;
  const drawer = await db
    .selectFrom('cash_counts')
    .select(['kind', 'counted_amount', 'created', 'id'])
    .where('restaurant_id', '=', rid)
    .where('livemode', '=', mode)
    .where('business_date', '=', date)
    .orderBy('created', 'desc')
    .orderBy('id', 'desc')
    .execute();
  const latest = (kind: string) => drawer.find((d) => d.kind === kind);
  const sumKind = (kind: string) => drawer.filter((d) => d.kind === kind).reduce((t, d) => t + Number(d.counted_amount), 0);
  const opening_float = Number(latest('opening_float')?.counted_amount ?? 0);
  const paid_in = sumKind('paid_in');
  const paid_out = sumKind('paid_out');
  // tips paid in cash stay in the drawer with the bill; change given has already gone back out
  const expected = opening_float + cashIn.amount + cashIn.tip_amount + paid_in - paid_out;
  const count = latest('count');
  const counted = count ? Number(count.counted_amount) : null;

  const open = live
    .map((o) => ({ o, due: balanceOf(o).amount_due }))
    .filter(({ due }) => due > 0)
    .map(({ o, due }) => ({ id: o.id, order_number: o.order_number, table: o.table_id, status: o.status, total: Number(o.total), amount_due: due }));

  // a check merged into another took its lines and money with it: it is not a cancellation
  const cancelled = orders.filter((o) => o.status === 'cancelled' && !o.merged_into && (lines.get(o.id) ?? []).some((l) => l.sent_to_kitchen_at !== null && !l.voided_at));
  const names = await namesOf(db, rid, [...pays.map((p) => p.server_id), ...cancelled.map((o) => o.cancel_approved_by)]);
  const cancellations = cancelled.map((o) => {
    const items = lines.get(o.id) ?? [];
    const amount = lineBills(items, o).reduce((t, b) => t + b.net_amount, 0);
    return {
      id: o.id,
      order_number: o.order_number,
      table: o.table_id,
      amount,
      amount_paid: Number(o.amount_paid),
      reason: o.cancel_reason,
      approved_by: o.cancel_approved_by ?? null,
      approved_by_name: o.cancel_approved_by ? (names.get(o.cancel_approved_by) ?? null) : null,
    };
  });

  const tips = new Map<string | null, { count: number; tip_amount: number }>();
  for (const p of pays) {
    const t = tips.get(p.server_id) ?? { count: 0, tip_amount: 0 };
    t.count++;
    t.tip_amount += Number(p.tip_amount);
    tips.set(p.server_id, t);
  }
  const tips_by_server = [...tips]
    .map(([server, t]) => ({ server, name: server ? (names.get(server) ?? null) : null, ...t }))
    .sort((a, b) => b.tip_amount - a.tip_amount || String(a.name).localeCompare(String(b.name)));

  const total = s.net_excl_tax + s.tax + s.delivery_fees + s.order_tips;
  return {
    date,
    currency: restaurant.currency,
    livemode: mode === 1,
    prices_include_tax: pricesIncludeTax,
    sales: {
      orders: live.length,
      ...s,
      by_tax_rate: [...rates.values()].sort((a, b) => a.rate - b.rate),
      total,
      refunds: refunds.returns.amount,
      net_after_returns: total - refunds.returns.amount,
    },
    discounts,
    comps,
    voids,
    refunds,
    payments: { count: pays.length, taken, refunded: refunds.amount, net: taken - refunds.amount },
    by_method,
    total_tips: by_method.reduce((t, m) => t + m.tip_amount, 0),
    tips_by_server,
    cash: {
      opening_float,
      sales: cashIn.amount,
      tips: cashIn.tip_amount,
      paid_in,
      paid_out,
      expected,
      counted,
      over_short: counted === null ? null : counted - expected,
      counted_at: count ? Number(count.created) : null,
    },
    open_orders: { count: open.length, amount_due: open.reduce((t, o) => t + o.amount_due, 0), orders: open },
    cancellations: { count: cancellations.length, amount: cancellations.reduce((t, c) => t + c.amount, 0), orders: cancellations },
  };
}

const sumOf = (rows: { amount: number }[]) => rows.reduce((t, r) => t + Number(r.amount), 0);

async function linesOf(db: Executor, orderIds: string[]): Promise<Map<string, OrderItemRow[]>> {
  const out = new Map<string, OrderItemRow[]>();
  for (let i = 0; i < orderIds.length; i += 500) {
    const rows = await db.selectFrom('order_items').selectAll().where('order_id', 'in', orderIds.slice(i, i + 500)).orderBy('idx').execute();
    for (const r of rows) {
      const list = out.get(r.order_id);
      if (list) list.push(r);
      else out.set(r.order_id, [r]);
    }
  }
  return out;
}

async function namesOf(db: Executor, rid: string, ids: (string | null)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((x): x is string => !!x))];
  if (!wanted.length) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'name']).where('restaurant_id', '=', rid).where('id', 'in', wanted).execute();
  return new Map(rows.map((u) => [u.id, u.name]));
}

