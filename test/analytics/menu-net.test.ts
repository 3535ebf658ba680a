import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  it('takes back a comp when it is removed, and counts a line again once it is discounted no more', async () => {
    await ok(hub.api.post(`/v1/orders/${ids[0]}/items/2/discount`, { amount: 0, reason: 'comp taken back' }));
    const { mix } = await report();
    expect(mix.data.find((i: any) => i.name === 'Water')).toEqual({ name: 'Water', total_quantity: 3, total_revenue: 999, order_count: 1 });
    await ok(hub.api.post(`/v1/orders/${ids[0]}/items/2/discount`, { percent: 100, reason: 'comp: waited too long' }));
    await check();
  });
});
