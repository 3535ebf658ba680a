import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../server/demo/seed.ts';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type TestHub } from '../helpers/server.ts';

/**
 * The demo's guest list tells the truth about its order history: every guest the history
 * made has visits and spend, and a guest who books under a name from the history is that
 * regular (with their visits), not a second record with 0 visits and €0.
 */
describe.each(DIALECTS)('demo guests on %s', (dialect) => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub(dialect);
    const actor = { restaurantId: hub.restaurant.id, livemode: true, now: hub.clock.now() };
    await seedDemo(hub.server.services.tx, actor, { historyDays: 3, ordersPerDay: 20 }, hub.server.services.registry.hooks);
  });
  afterAll(() => hub?.close());

  it('gives no guest named on an order 0 visits', async () => {
    const customers = (await hub.api.get('/v1/customers?limit=100')).body.data as any[];
    const db = hub.server.services.db;
    const named = await db.selectFrom('orders').select(['customer_name', 'customer_id']).where('restaurant_id', '=', hub.restaurant.id).where('customer_name', 'is not', null).execute();
    const namesOnOrders = new Set(named.map((o) => o.customer_name));
    expect(namesOnOrders.size).toBeGreaterThan(5);
    const zero = customers.filter((c) => c.total_visits === 0);
    expect(zero.filter((c) => namesOnOrders.has(c.name)).map((c) => c.name)).toEqual([]);
    // every customer of the order history has been
    const ofHistory = new Set(named.map((o) => o.customer_id));
    expect(customers.filter((c) => ofHistory.has(c.id)).every((c) => c.total_visits > 0 && c.total_spent > 0)).toBe(true);
    // the regular who books again: one record, with her visits, and the booking on it
    const giulia = customers.filter((c) => c.name === 'Giulia Rossi');
    expect(giulia).toHaveLength(1);
    expect(giulia[0].total_visits).toBeGreaterThan(0);
    const bookings = (await hub.api.get('/v1/reservations?limit=100')).body.data as any[];
    expect(bookings.find((r) => r.guest.name === 'Giulia Rossi')?.customer).toBe(giulia[0].id);
  });
});
