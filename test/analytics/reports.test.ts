import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildRollups } from '../../server/domain/analytics/rebuild.ts';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { changeOrder, createOrder, type FixtureLine, prng } from './fixtures.ts';
import {
  days,
  isSale,
  localOf,
  plainChange,
  plainFit,
  plainItems,
  plainRevenue,
  plusDays,
  sales,
  type PlainLine,
  type PlainOrder,
} from './plain.ts';
import { insertReservations } from './reservation-rows.ts';

const ZONE = 'Europe/Berlin';
const at = (day: string, h: number, m = 0) => Math.floor(DateTime.fromISO(day, { zone: ZONE }).set({ hour: h, minute: m }).toSeconds());
// Now is 2026-11-02 13:00 in Berlin (the ManualClock default); Berlin left summer time on 2026-10-25.
const TODAY = '2026-11-02';

async function seed(hub: TestHub) {
  const cat = await hub.api.post('/v1/menu_categories', { name: 'Food', station: 'kitchen' });
  const menu: FixtureLine[] = [];
  for (const [name, price] of [['Pizza', 1200], ['Pasta', 1100], ['Salad', 850], ['Tiramisu', 650], ['Espresso', 250], ['Wine', 700], ['Steak', 2900]] as const) {
    const r = await hub.api.post('/v1/menu_items', { name, category: cat.body.id, price });
    menu.push({ menuItemId: r.body.id, name, quantity: 1, unitPrice: price });
  }
  const rnd = prng(7);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
  const guests = Array.from({ length: 9 }, (_, i) => ({ name: `Guest ${i}`, email: `guest${i}@example.com` }));
  const lines = () =>
    Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => ({ ...pick(menu), quantity: 1 + Math.floor(rnd() * 3) }));
  for (const day of days('2026-09-28', TODAY)) {
    const n = 3 + Math.floor(rnd() * 6) + (day.endsWith('1') ? 4 : 0);
    for (let i = 0; i < n; i++) {
      const hour = pick([11, 12, 13, 18, 19, 20, 21, 22, 23, 0, 1]);
      const created = at(day, hour, Math.floor(rnd() * 60));
      if (created * 1000 > hub.clock.now()) continue;
      const r = rnd();
      const status = r < 0.1 ? 'cancelled' : r < 0.15 ? 'draft' : r < 0.4 ? 'placed' : 'completed';
      await createOrder(hub, {
        created,
        status,
        type: pick(['dine_in', 'dine_in', 'takeout', 'delivery'] as const),
        livemode: rnd() > 0.05,
        lines: lines(),
        customer: rnd() < 0.5 ? pick(guests) : undefined,
        tip: rnd() < 0.3 ? 200 : 0,
        discount: rnd() < 0.1 ? 150 : 0,
      });
    }
  }
  // Across midnight: opened as a draft at 23:50, placed at 00:10 — the sale is the next day's.
  for (const day of ['2026-10-09', '2026-10-20', '2026-10-31']) {
    const o = await createOrder(hub, { created: at(day, 23, 50), status: 'draft', lines: lines(), customer: guests[0] });
    await changeOrder(hub, o.order.id, at(plusDays(day, 1), 0, 10), { status: 'placed', placedAt: at(plusDays(day, 1), 0, 10) });
  }
  // The DST change: 02:30 happens twice on 2026-10-25 (first +02:00, then +01:00).
  const first = Math.floor(DateTime.fromISO('2026-10-25T02:30:00+02:00').toSeconds());
  await createOrder(hub, { created: first, status: 'completed', lines: lines() });
  await createOrder(hub, { created: first + 3600, status: 'completed', lines: lines(), customer: guests[3] });
  await createOrder(hub, { created: at('2026-10-25', 23, 59), status: 'completed', lines: lines() });
  // Counted, then cancelled; counted, then grown by a second round; counted, then completed.
  const a = await createOrder(hub, { created: at('2026-10-15', 19), status: 'placed', lines: lines(), customer: guests[1] });
  await changeOrder(hub, a.order.id, at('2026-10-15', 19, 30), { status: 'cancelled' });
  const b = await createOrder(hub, { created: at('2026-10-16', 20), status: 'placed', lines: lines(), customer: guests[2] });
  await changeOrder(hub, b.order.id, at('2026-10-16', 21), { status: 'preparing', append: [{ ...menu[6], quantity: 2 }] });
  await changeOrder(hub, b.order.id, at('2026-10-16', 22), { status: 'completed' });
  // Reservations for the reservations report, the dashboard and the comparison.
  const rres = prng(11);
  const rows = [];
  for (const day of days('2026-10-01', '2026-11-04')) {
    for (let i = 0; i < 4; i++) {
      rows.push({
        status: ['pending', 'confirmed', 'seated', 'completed', 'cancelled', 'no_show'][Math.floor(rres() * 6)],
        party_size: 1 + Math.floor(rres() * 7),
        date: day,
        time: '19:30',
        livemode: rres() > 0.05,
      });
    }
  }
  await insertReservations(hub, rows);
  return { menu, reservations: rows };
}

describe.each(DIALECTS)('analytics reports on %s', (dialect) => {
  let hub: TestHub;
  let orders: PlainOrder[];
  let lines: PlainLine[];
  let names: Map<string, string>;
  let customers: { id: string; name: string | null; first_seen: number }[];
  let reservations: Awaited<ReturnType<typeof seed>>['reservations'];

  beforeAll(async () => {
    hub = await startHub(dialect);
    reservations = (await seed(hub)).reservations;
    const db = hub.server.services.db;
    orders = (await db.selectFrom('orders').selectAll().execute()) as PlainOrder[];
    lines = (await db.selectFrom('order_items').selectAll().execute()) as PlainLine[];
    names = new Map((await db.selectFrom('menu_items').select(['id', 'name']).execute()).map((m) => [m.id, m.name]));
    customers = await db.selectFrom('customers').select(['id', 'name', 'first_seen']).execute();
  }, 120_000); // 120 s: a seeded month of orders written first
  afterAll(() => hub?.close());

  const get = async (path: string) => {
    const r = await hub.api.get(path);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body;
  };

  it('has a data set with every hard case in it', () => {
    expect(orders.some((o) => o.status === 'cancelled')).toBe(true);
    expect(orders.some((o) => o.status === 'draft')).toBe(true);
    expect(orders.some((o) => o.livemode === 0 && isSale({ ...o, livemode: 1 }))).toBe(true);
    expect(orders.some((o) => o.placed_at !== null && localOf(o.placed_at, ZONE).day !== localOf(o.created, ZONE).day)).toBe(true);
    expect(sales(orders, ZONE).filter((s) => s.day === '2026-10-25' && s.hour === 2).length).toBe(2);
  });

  it.each(['day', 'week', 'month'])('revenue and orders by %s match the orders', async (groupBy) => {
    const start = '2026-09-30';
    const end = TODAY;
    const expected = plainRevenue(orders, ZONE, start, end, groupBy);
    const revenue = await get(`/v1/analytics/revenue?start_date=${start}&end_date=${end}&group_by=${groupBy}`);
    expect(revenue).toEqual({
      object: 'analytics.revenue',
      group_by: groupBy,
      data: expected.map(({ by_type: _b, ...r }) => r),
    });
    const counts = await get(`/v1/analytics/orders?start_date=${start}&end_date=${end}&group_by=${groupBy}`);
    expect(counts).toEqual({
      object: 'analytics.orders',
      group_by: groupBy,
      data: expected.map((r) => ({ period: r.period, count: r.order_count, by_type: r.by_type })),
    });
    expect(expected.reduce((n, r) => n + r.order_count, 0)).toBeGreaterThan(100);
  });

  it('revenue defaults to the last 30 days by day and counts the DST day once', async () => {
    const r = await get('/v1/analytics/revenue');
    expect(r.data.map((d: any) => d.period)).toEqual(days(plusDays(TODAY, -29), TODAY));
    expect(r.data).toEqual(plainRevenue(orders, ZONE, plusDays(TODAY, -29), TODAY, 'day').map(({ by_type: _b, ...x }) => x));
  });

  it('ISO weeks cross the year boundary (2026 has 53 weeks)', async () => {
    const r = await get('/v1/analytics/orders?start_date=2026-12-27&end_date=2027-01-04&group_by=week');
    expect(r.data.map((d: any) => d.period)).toEqual(plainRevenue(orders, ZONE, '2026-12-27', '2027-01-04', 'week').map((x) => x.period));
    expect(r.data.map((d: any) => d.period)).toEqual(['2026-W52', '2026-W53', '2027-W01']);
  });

  it('menu_items and menu_abc match the lines', async () => {
    const start = '2026-10-05';
    const end = '2026-10-28';
    const items = plainItems(orders, lines, ZONE, start, end, names);
    const top = [...items].sort((a, b) => b.quantity - a.quantity || b.revenue - a.revenue || (a.id < b.id ? -1 : 1));
    expect(await get(`/v1/analytics/menu_items?start_date=${start}&end_date=${end}`)).toEqual({
      object: 'analytics.menu_items',
      data: top.slice(0, 50).map((i) => ({ name: i.name, total_quantity: i.quantity, total_revenue: i.revenue, order_count: i.orders })),
    });
    const byRevenue = [...items].sort((a, b) => b.revenue - a.revenue || b.quantity - a.quantity || (a.id < b.id ? -1 : 1));
    const total = items.reduce((n, i) => n + i.revenue, 0);
    let running = 0;
    const expected = byRevenue.map((i) => {
      running += i.revenue;
      const share = running / total;
      return {
        menu_item: i.id,
        name: i.name,
        quantity_sold: i.quantity,
        total_revenue: i.revenue,
        revenue_percent: (Math.round((i.revenue * 10000) / total) / 100).toFixed(2),
        order_count: i.orders,
        classification: share <= 0.8 ? 'A' : share <= 0.95 ? 'B' : 'C',
      };
    });
    const abc = await get(`/v1/analytics/menu_abc?start_date=${start}&end_date=${end}`);
    expect(abc).toEqual({
      object: 'analytics.menu_abc',
      items: expected,
      summary: {
        totalItems: expected.length,
        classA: expected.filter((e) => e.classification === 'A').length,
        classB: expected.filter((e) => e.classification === 'B').length,
        classC: expected.filter((e) => e.classification === 'C').length,
        totalRevenue: total,
      },
    });
    expect(abc.summary.classA).toBeGreaterThan(0);
  });

  it('peak_hours is a Sunday-first 7×24 grid in local time', async () => {
    const start = '2026-10-01';
    const end = '2026-10-31';
    const grid = Array.from({ length: 7 }, () => Array.from({ length: 24 }, () => ({ orders: 0, revenue: 0 })));
    for (const s of sales(orders, ZONE).filter((s) => s.day >= start && s.day <= end)) {
      grid[s.weekday][s.hour].orders++;
      grid[s.weekday][s.hour].revenue += s.total;
    }
    const r = await get(`/v1/analytics/peak_hours?start_date=${start}&end_date=${end}`);
    expect(r.object).toBe('analytics.peak_hours');
    expect(r.days).toEqual(['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']);
    expect(r.hours[0]).toBe('00:00');
    expect(r.hours[23]).toBe('23:00');
    expect(r.hours).toHaveLength(24);
    expect(r.data).toEqual(grid);
    // 2026-10-25 is a Sunday; both 02:30s fall in hour 2
    expect(r.data[0][2].orders).toBeGreaterThanOrEqual(2);
  });

  it('customers: new in range by local first-seen day, top 10 lifetime spenders', async () => {
    const start = '2026-10-01';
    const end = '2026-10-10';
    const fresh = customers.filter((c) => {
      const d = localOf(c.first_seen, ZONE).day;
      return d >= start && d <= end;
    }).length;
    const spent = new Map<string, { visits: number; spent: number }>();
    for (const o of orders.filter(isSale)) {
      if (!o.customer_id) continue;
      const s = spent.get(o.customer_id) ?? { visits: 0, spent: 0 };
      s.visits++;
      s.spent += o.total;
      spent.set(o.customer_id, s);
    }
    const top = [...spent]
      .sort((a, b) => b[1].spent - a[1].spent || (a[0] < b[0] ? 1 : -1))
      .slice(0, 10)
      .map(([id, s]) => ({
        id,
        name: customers.find((c) => c.id === id)!.name,
        total_visits: s.visits,
        total_spent: s.spent,
        loyalty_points: Math.floor(s.spent / 100),
      }));
    const r = await get(`/v1/analytics/customers?start_date=${start}&end_date=${end}`);
    expect(r).toEqual({ object: 'analytics.customers', new_customers: fresh, top_customers: top });
    expect(top.length).toBeGreaterThan(3);
    // the customer record carries the same points
    const rec = await get(`/v1/customers/${top[0].id}`);
    expect(rec.loyalty_points).toBe(top[0].loyalty_points);
    expect(rec.total_spent).toBe(top[0].total_spent);
  });

  it('reservations by status over the range', async () => {
    const start = '2026-10-10';
    const end = '2026-10-20';
    const inRange = reservations.filter((r) => r.date >= start && r.date <= end && r.livemode);
    const statuses = ['pending', 'confirmed', 'arrived', 'seated', 'completed', 'cancelled', 'no_show'];
    const r = await get(`/v1/analytics/reservations?start_date=${start}&end_date=${end}`);
    expect(r).toEqual({
      object: 'analytics.reservations',
      by_status: statuses.map((status) => {
        const xs = inRange.filter((x) => x.status === status);
        const sum = xs.reduce((n, x) => n + x.party_size, 0);
        return { status, count: xs.length, avg_party_size: xs.length ? Math.round((sum / xs.length) * 100) / 100 : 0 };
      }),
    });
  });

  it('dashboard shows today', async () => {
    const s = sales(orders, ZONE).filter((x) => x.day === TODAY);
    const r = await get('/v1/analytics/dashboard');
    expect(r).toEqual({
      object: 'analytics.dashboard',
      total_orders: s.length,
      total_revenue: s.reduce((n, x) => n + x.total, 0),
      active_reservations: reservations.filter((x) => x.date === TODAY && x.livemode && ['pending', 'confirmed', 'arrived', 'seated'].includes(x.status)).length,
      new_customers: customers.filter((c) => localOf(c.first_seen, ZONE).day === TODAY).length,
    });
    expect(r.total_orders).toBeGreaterThan(0);
  });

  it('sales_forecast fits the 30 days before today', async () => {
    const hist = days(plusDays(TODAY, -30), plusDays(TODAY, -1)).map((date) => ({
      date,
      revenue: sales(orders, ZONE).filter((s) => s.day === date).reduce((n, s) => n + s.total, 0),
    }));
    const fit = plainFit(hist.map((h) => h.revenue));
    const r = await get('/v1/analytics/sales_forecast?days=10');
    const rel = fit.slope / fit.mean;
    expect(r).toEqual({
      object: 'analytics.sales_forecast',
      historical: hist,
      forecast: Array.from({ length: 10 }, (_, i) => ({
        date: plusDays(TODAY, i),
        predictedRevenue: Math.max(0, Math.round(fit.intercept + fit.slope * (30 + i))),
        confidence: Math.round(fit.r2 * 100) / 100,
      })),
      trend: rel > 0.01 ? 'increasing' : rel < -0.01 ? 'decreasing' : 'stable',
      avgDailyRevenue: Math.round(fit.mean),
    });
    expect((await get('/v1/analytics/sales_forecast')).forecast).toHaveLength(7);
  });

  it('period_comparison against the period of the same length just before', async () => {
    const figures = (start: string, end: string) => {
      const s = sales(orders, ZONE).filter((x) => x.day >= start && x.day <= end);
      const revenue = s.reduce((n, x) => n + x.total, 0);
      return {
        revenue,
        orders: s.length,
        avgOrderValue: s.length ? Math.round(revenue / s.length) : 0,
        customers: customers.filter((c) => localOf(c.first_seen, ZONE).day >= start && localOf(c.first_seen, ZONE).day <= end).length,
        reservations: reservations.filter((x) => x.date >= start && x.date <= end && x.livemode && x.status !== 'cancelled').length,
      };
    };
    const current = figures('2026-10-17', '2026-10-30');
    const previous = figures('2026-10-03', '2026-10-16');
    const r = await get('/v1/analytics/period_comparison?start_date=2026-10-17&end_date=2026-10-30');
    expect(r).toEqual({
      object: 'analytics.period_comparison',
      current,
      previous,
      changes: Object.fromEntries(Object.keys(current).map((k) => [k, plainChange((current as any)[k], (previous as any)[k])])),
    });
    // before any data: previous is all 0 and the changes are defined
    const early = await get('/v1/analytics/period_comparison?start_date=2026-09-28&end_date=2026-10-01');
    expect(early.previous.revenue).toBe(0);
    expect(early.changes.revenue).toBe('100.0');
    expect(early.changes.avgOrderValue).toBe('100.0');
    const empty = await get('/v1/analytics/period_comparison?start_date=2020-01-01&end_date=2020-01-31');
    expect(Object.values(empty.changes)).toEqual(['0.0', '0.0', '0.0', '0.0', '0.0']);
  });

  it('rebuilding the roll-ups from the orders gives the same reports', async () => {
    const paths = [
      '/v1/analytics/revenue?start_date=2026-09-28&end_date=2026-11-02',
      '/v1/analytics/menu_abc?start_date=2026-09-28&end_date=2026-11-02',
      '/v1/analytics/customers',
      '/v1/analytics/peak_hours?start_date=2026-09-28&end_date=2026-11-02',
    ];
    const before = await Promise.all(paths.map(get));
    const db = hub.server.services.db;
    // lose the roll-ups, then build them back from the orders alone
    await db.deleteFrom('analytics_daily').execute();
    await db.deleteFrom('analytics_item_daily').execute();
    expect((await get(paths[0])).data.every((d: any) => d.revenue === 0)).toBe(true);
    await hub.server.services.tx.run((trx) => rebuildRollups(trx, hub.restaurant.id));
    expect(await Promise.all(paths.map(get))).toEqual(before);
  });

  it('reports are scoped to the restaurant and ignore sandbox', async () => {
    const other = await hub.addRestaurant('other-analytics');
    const r = await other.api.get('/v1/analytics/revenue?start_date=2026-10-01&end_date=2026-10-31&group_by=month');
    expect(r.body.data).toEqual([{ period: '2026-10', revenue: 0, order_count: 0, avg_order_value: 0 }]);
  });
});
