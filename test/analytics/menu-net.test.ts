import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { up as netMenuMix } from '../../server/db/migrations/2670_menu_mix_net.ts';
import { rebuildRollups } from '../../server/domain/analytics/rebuild.ts';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { seedMenu, type Menu } from '../orders/fixtures.ts';

/**
 * The product mix and Menu ABC count what was sold, net of voids and comps: a voided line
 * counts nowhere, a comped one its quantity at 0, a discounted one what is left. On a
 * tax-inclusive venue with no check discount the items' revenue is then the checks' totals
 * to the cent (once it was €163.50 of dishes against €145.90 taken).
 */
describe.each(DIALECTS)('menu analytics net of voids and comps on %s', (dialect) => {
  let hub: TestHub;
  let menu: Menu;
  const ids: string[] = [];

  const ok = async (r: Promise<{ status: number; body: any }>) => {
    const res = await r;
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    return res.body;
  };

  beforeAll(async () => {
    hub = await startHub(dialect);
    menu = await seedMenu(hub);
    await ok(hub.api.patch('/v1/settings', { prices_include_tax: true }));
    const ring = async (items: { menu_item: string; quantity: number; modifiers?: string[] }[]) => {
      const order = await ok(hub.api.post('/v1/orders', { type: 'dine_in', table: menu.table, items, status: 'placed' }));
      ids.push(order.id);
      return order.id as string;
    };
    // carbonara ×2 discounted by 2.00, the steak voided, three waters comped
    const a = await ring([
      { menu_item: menu.pasta, quantity: 2 },
      { menu_item: menu.steak, quantity: 1, modifiers: ['Rare'] },
      { menu_item: menu.water, quantity: 3 },
    ]);
    await ok(hub.api.post(`/v1/orders/${a}/items/1/void`, { reason: 'wrong table' }));
    await ok(hub.api.post(`/v1/orders/${a}/items/2/discount`, { percent: 100, reason: 'comp: waited too long' }));
    await ok(hub.api.post(`/v1/orders/${a}/items/0/discount`, { amount: 200, reason: 'regular' }));
    // a steak sold; its carbonara voided
    const b = await ring([
      { menu_item: menu.steak, quantity: 1, modifiers: ['Rare'] },
      { menu_item: menu.pasta, quantity: 1 },
    ]);
    await ok(hub.api.post(`/v1/orders/${b}/items/1/void`, { reason: 'changed their mind' }));
    // a check whose only water was voided: the water was not sold here at all
    const c = await ring([{ menu_item: menu.water, quantity: 1 }]);
    await ok(hub.api.post(`/v1/orders/${c}/items/0/void`, { reason: 'spilt' }));
  });
  afterAll(() => hub?.close());

  const report = async () => {
    // the days around the hub's clock, whatever the venue's time zone: every check of the test is in it
    const date = (days: number) => new Date(hub.clock.now() + days * 86_400_000).toISOString().slice(0, 10);
    const range = `start_date=${date(-1)}&end_date=${date(1)}`;
    return {
      mix: await ok(hub.api.get(`/v1/analytics/menu_items?${range}`)),
      abc: await ok(hub.api.get(`/v1/analytics/menu_abc?${range}`)),
    };
  };

  const expected = [
    { name: 'Steak', total_quantity: 1, total_revenue: 2990, order_count: 1 },
    { name: 'Carbonara', total_quantity: 2, total_revenue: 2 * 1450 - 200, order_count: 1 },
    { name: 'Water', total_quantity: 3, total_revenue: 0, order_count: 1 },
  ];

  const check = async () => {
    const totals = await Promise.all(ids.map(async (id) => (await ok(hub.api.get(`/v1/orders/${id}`))).total as number));
    const { mix, abc } = await report();
    // the product mix: most sold first, the comped water with its quantity and no revenue
    expect(mix.data).toEqual([expected[2], expected[1], expected[0]]);
    // Menu ABC by revenue, adding up to what the checks came to
    expect(abc.items.map((i: any) => [i.name, i.quantity_sold, i.total_revenue, i.order_count])).toEqual(
      expected.map((e) => [e.name, e.total_quantity, e.total_revenue, e.order_count]),
    );
    const sum = totals.reduce((n, t) => n + t, 0);
    expect(sum).toBe(2990 + 2700);
    expect(abc.summary.totalRevenue).toBe(sum);
    expect(mix.data.reduce((n: number, i: any) => n + i.total_revenue, 0)).toBe(sum);
    expect(abc.items.map((i: any) => i.revenue_percent)).toEqual(['52.55', '47.45', '0.00']);
  };

  it('counts each line at what it cost after its void, comp and discount, as the orders total', check);

  it('gives the same after the roll-ups are rebuilt from the orders (a time-zone change, a sync)', async () => {
    await hub.server.services.tx.run((trx) => rebuildRollups(trx, hub.restaurant.id));
    await check();
  });

  it('puts right the days a hub counted at list price before (migration 2670)', async () => {
    const db = hub.server.services.db;
    // the roll-ups as the old rule left them: every line of these checks at its list price
    for (const id of ids) {
      const fact = await db.selectFrom('analytics_order_facts').selectAll().where('order_id', '=', id).executeTakeFirstOrThrow();
      const lines = await db.selectFrom('order_items').selectAll().where('order_id', '=', id).execute();
      const old = new Map<string, [string, number, number]>();
      for (const l of lines) {
        const e = old.get(l.menu_item_id) ?? [l.menu_item_id, 0, 0];
        e[1] += l.quantity;
        e[2] += l.line_subtotal;
        old.set(l.menu_item_id, e);
      }
      const now = new Map((JSON.parse(fact.items) as [string, number, number][]).map((e) => [e[0], e]));
      for (const [item, [, quantity, revenue]] of old) {
        const [, q, r] = now.get(item) ?? [item, 0, 0];
        const row = { restaurant_id: fact.restaurant_id, day: fact.day, menu_item_id: item };
        await db
          .updateTable('analytics_item_daily')
          .set((eb) => ({ quantity: eb('quantity', '+', quantity - q), revenue: eb('revenue', '+', revenue - r), orders: eb('orders', '+', now.has(item) ? 0 : 1) }))
          .where('restaurant_id', '=', row.restaurant_id)
          .where('day', '=', row.day)
          .where('menu_item_id', '=', item)
          .execute();
      }
      await db.updateTable('analytics_order_facts').set({ items: JSON.stringify([...old.values()].sort((a, b) => (a[0] < b[0] ? -1 : 1))) }).where('order_id', '=', id).execute();
    }
    const { abc } = await report();
    // every line rung in: two steaks, three carbonaras, four waters
    expect(abc.summary.totalRevenue).toBe(2 * 2990 + 3 * 1450 + 4 * 333);
    await netMenuMix(db);
    await check();
    // run again, it finds nothing left to change
    await netMenuMix(db);
    await check();
  });

  it('takes back a comp when it is removed, and counts a line again once it is discounted no more', async () => {
    await ok(hub.api.post(`/v1/orders/${ids[0]}/items/2/discount`, { amount: 0, reason: 'comp taken back' }));
    const { mix } = await report();
    expect(mix.data.find((i: any) => i.name === 'Water')).toEqual({ name: 'Water', total_quantity: 3, total_revenue: 999, order_count: 1 });
    await ok(hub.api.post(`/v1/orders/${ids[0]}/items/2/discount`, { percent: 100, reason: 'comp: waited too long' }));
    await check();
  });
});
