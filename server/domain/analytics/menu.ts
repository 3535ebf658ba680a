import type { DateRange } from './calendar.ts';
import type { ReportContext } from './context.ts';

export const TOP_MENU_ITEMS = 50;

/** Per menu item sales over a range (items sold at least once), with the item's current name. */
async function itemSales(ctx: ReportContext, range: DateRange) {
  const rows = await ctx.db
    .selectFrom('analytics_item_daily')
    .select((eb) => [
      'menu_item_id',
      eb.fn.sum<number>('quantity').as('quantity'),
      eb.fn.sum<number>('revenue').as('revenue'),
      eb.fn.sum<number>('orders').as('orders'),
    ])
    .where('restaurant_id', '=', ctx.restaurantId)
    .where('day', '>=', range.start)
    .where('day', '<=', range.end)
    .groupBy('menu_item_id')
    .execute();
  const sold = rows
    .map((r) => ({ id: r.menu_item_id, quantity: Number(r.quantity), revenue: Number(r.revenue), orders: Number(r.orders) }))
    .filter((r) => r.orders > 0);
  const names = new Map<string, string>();
  if (sold.length) {
    const items = await ctx.db
      .selectFrom('menu_items')
      .select(['id', 'name'])
      .where('restaurant_id', '=', ctx.restaurantId)
      .where('id', 'in', sold.map((s) => s.id))
      .execute();
    for (const i of items) names.set(i.id, i.name);
  }
  return sold.map((s) => ({ ...s, name: names.get(s.id) ?? s.id }));
}

const byKeys =
  <T extends { id: string }>(...keys: ((x: T) => number)[]) =>
  (a: T, b: T) => {
    for (const k of keys) if (k(a) !== k(b)) return k(b) - k(a);
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  };

export async function menuItemsReport(ctx: ReportContext, range: DateRange) {
  const sales = await itemSales(ctx, range);
  sales.sort(byKeys((s) => s.quantity, (s) => s.revenue));
  return {
    object: 'analytics.menu_items' as const,
    data: sales.slice(0, TOP_MENU_ITEMS).map((s) => ({
      name: s.name,
      total_quantity: s.quantity,
      total_revenue: s.revenue,
      order_count: s.orders,
    })),
  };
}

/** Class A while the running revenue share stays at or under 80 %, B up to 95 %, C after. */
export const ABC_THRESHOLDS = { A: 80, B: 95 } as const;

/** part / whole as a percentage string with two decimals, rounded half up, exactly. */
export function percentString(part: number, whole: number): string {
  if (whole === 0) return '0.00';
  const hundredths = (BigInt(part) * 20000n + BigInt(whole)) / (2n * BigInt(whole));
  return `${hundredths / 100n}.${String(hundredths % 100n).padStart(2, '0')}`;
}

export async function menuAbcReport(ctx: ReportContext, range: DateRange) {
  const sales = await itemSales(ctx, range);
  sales.sort(byKeys((s) => s.revenue, (s) => s.quantity));
  const total = sales.reduce((n, s) => n + s.revenue, 0);
  let running = 0;
  const items = sales.map((s) => {
    running += s.revenue;
    // compared in integers: running / total ≤ 80 / 100
    const classification = total === 0 ? 'C' : running * 100 <= ABC_THRESHOLDS.A * total ? 'A' : running * 100 <= ABC_THRESHOLDS.B * total ? 'B' : 'C';
    return {
      menu_item: s.id,
      name: s.name,
      quantity_sold: s.quantity,
      total_revenue: s.revenue,
      revenue_percent: percentString(s.revenue, total),
      order_count: s.orders,
      classification: classification as 'A' | 'B' | 'C',
    };
  });
  return {
    object: 'analytics.menu_abc' as const,
    items,
    summary: {
      totalItems: items.length,
      classA: items.filter((i) => i.classification === 'A').length,
      classB: items.filter((i) => i.classification === 'B').length,
      classC: items.filter((i) => i.classification === 'C').length,
      totalRevenue: total,
    },
  };
}
