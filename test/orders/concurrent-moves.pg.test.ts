import type { Transaction } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderContext } from '../../server/api/orders/context.ts';
import type { DB } from '../../server/db/schema.ts';
import { changeLineStatus, changeOrderStatus } from '../../server/domain/orders/change-status.ts';
import { DIALECTS } from '../helpers/db.ts';
import { raceOnPostgres } from '../helpers/race.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { seedMenu, type Menu } from './fixtures.ts';

/**
 * Two moves of one order at the same moment, each in its own transaction (the cloud runs
 * them side by side on PostgreSQL; the hub's SQLite runs one unit of work at a time, so
 * there they cannot overlap). The second must wait for the first and build on it.
 */
for (const dialect of DIALECTS.filter((d) => d === 'postgres')) {
  describe(`concurrent moves of one order on ${dialect}`, () => {
    let hub: TestHub;
    let menu: Menu;
    beforeAll(async () => {
      hub = await startHub(dialect);
      menu = await seedMenu(hub);
    });
    afterAll(() => hub?.close());

    const actor = () => ({ restaurantId: hub.restaurant.id, livemode: true, now: hub.clock.now() });
    const ctx = () => orderContext(hub.server.services);

    const race = (first: (trx: Transaction<DB>) => Promise<unknown>, second: (trx: Transaction<DB>) => Promise<unknown>) =>
      raceOnPostgres(hub.server.services.db, first, second);

    async function placedWithTwoLines() {
      const o = await hub.api.post('/v1/orders', { type: 'takeout', items: [{ menu_item: menu.water, quantity: 1 }, { menu_item: menu.water, quantity: 2 }] });
      expect(o.status).toBe(201);
      expect((await hub.api.patch(`/v1/orders/${o.body.id}`, { status: 'placed' })).status).toBe(200);
      return o.body.id as string;
    }

    it('two stations finishing at once: the order ends ready', async () => {
      const id = await placedWithTwoLines();
      for (const i of [0, 1]) expect((await hub.api.withKey(hub.keys.widget).patch(`/public/orders/${id}/items/${i}/status`, { status: 'preparing' })).body).toMatchObject({ id });
      await race(
        (trx) => changeLineStatus(trx, actor(), ctx(), id, 0, 'ready'),
        (trx) => changeLineStatus(trx, actor(), ctx(), id, 1, 'ready'),
      );
      const order = (await hub.api.get(`/v1/orders/${id}`)).body;
      expect(order.items.map((l: { status: string }) => l.status)).toEqual(['ready', 'ready']);
      expect(order.status).toBe('ready');
    });

    it('a line move racing a cancel is refused, and the order stays cancelled', async () => {
      const id = await placedWithTwoLines();
      const outcome = await race(
        (trx) => changeOrderStatus(trx, actor(), ctx(), id, { status: 'cancelled', cancel_reason: 'guest left' }, async () => null),
        (trx) => changeLineStatus(trx, actor(), ctx(), id, 0, 'preparing'),
      );
      expect(outcome).toMatchObject({ code: 'order_not_open' });
      const order = (await hub.api.get(`/v1/orders/${id}`)).body;
      expect(order.status).toBe('cancelled');
      expect(order.items[0].status).not.toBe('preparing');
      // newest first: the cancel is the order's last event, and no event shows it preparing
      const events = (await hub.api.get('/v1/events?limit=10')).body.data.filter((e: { data: { object: { id: string } } }) => e.data.object.id === id);
      expect(events[0].type).toBe('order.cancelled');
      expect(events.some((e: { data: { object: { status: string } } }) => e.data.object.status === 'preparing')).toBe(false);
    });
  });
}
