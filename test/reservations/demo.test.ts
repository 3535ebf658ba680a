import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../server/demo/seed.ts';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type TestHub } from '../helpers/server.ts';

describe.each(DIALECTS)('reservations demo step on %s', (dialect) => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub(dialect);
  });
  afterAll(() => hub?.close());

  it('books a few upcoming reservations the API accepts and shows', async () => {
    const actor = { restaurantId: hub.restaurant.id, livemode: true, now: hub.clock.now() };
    const result = await seedDemo(hub.server.services.tx, actor, { historyDays: 0, ordersPerDay: 1 }, hub.server.services.registry.hooks);
    const list = await hub.api.get('/v1/reservations?limit=100&expand[]=table');
    expect(list.body.data.length).toBe(result.reservations);
    expect(list.body.data.length).toBeGreaterThanOrEqual(5);
    const now = Math.floor(hub.clock.now() / 1000);
    for (const r of list.body.data) {
      expect(r.starts_at).toBeGreaterThan(now);
      expect(['pending', 'confirmed']).toContain(r.status);
      if (r.table) expect(r.table.capacity).toBeGreaterThanOrEqual(r.party_size);
    }
    const dates = list.body.data.map((r: any) => r.date);
    const day = await hub.api.get(`/v1/reservations/availability?date=${dates[0]}`);
    expect(day.body.slots.some((s: any) => s.total_reservations > 0)).toBe(true);
  });
});
