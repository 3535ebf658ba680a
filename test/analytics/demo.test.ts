import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyticsDemo } from '../../server/demo/analytics.ts';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { createOrder } from './fixtures.ts';

describe.each(DIALECTS)('analytics demo step on %s', (dialect) => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub(dialect);
  });
  afterAll(() => hub?.close());

  it('adds staff with shifts and a stock room, and rolls up existing history', async () => {
    const cat = await hub.api.post('/v1/menu_categories', { name: 'Food', station: 'kitchen' });
    const item = await hub.api.post('/v1/menu_items', { name: 'Pizza', category: cat.body.id, price: 1000 });
    const yesterday = Math.floor(hub.clock.now() / 1000) - 86400;
    await createOrder(hub, { created: yesterday, status: 'completed', lines: [{ menuItemId: item.body.id, name: 'Pizza', quantity: 2, unitPrice: 1000 }] });
    // history written without the hook, as a bulk loader would
    await hub.server.services.db.deleteFrom('analytics_daily').execute();
    await hub.server.services.db.deleteFrom('analytics_order_facts').execute();
    const result: Record<string, any> = {};
    const actor = { restaurantId: hub.restaurant.id, livemode: true, now: hub.clock.now() };
    await analyticsDemo(hub.server.services.tx, actor, { historyDays: 14, ordersPerDay: 10 }, result, hub.server.services.registry.hooks);
    expect(result.analytics).toMatchObject({ staff: 6, inventory_items: 15, orders_counted: 1 });
    expect(result.analytics.shifts).toBeGreaterThan(80);
    const labor = await hub.api.get('/v1/analytics/labor');
    expect(labor.body.data).toHaveLength(6);
    expect(labor.body.data.reduce((n: number, d: any) => n + d.shifts, 0)).toBe(result.analytics.shifts);
    const inv = await hub.api.get('/v1/analytics/inventory');
    expect(inv.body.item_count).toBe(15);
    expect(inv.body.low_stock_items.length).toBeGreaterThan(0);
    const rev = await hub.api.get('/v1/analytics/revenue?group_by=month');
    expect(rev.body.data.reduce((n: number, d: any) => n + d.order_count, 0)).toBe(1);
  });
});
