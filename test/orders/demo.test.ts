import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../server/demo/seed.ts';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type TestHub } from '../helpers/server.ts';

describe.each(DIALECTS)('orders demo step on %s', (dialect) => {
  let hub: TestHub;
  let result: Record<string, any>;
  beforeAll(async () => {
    hub = await startHub(dialect);
    const actor = { restaurantId: hub.restaurant.id, livemode: true, now: hub.clock.now() };
    result = await seedDemo(hub.server.services.tx, actor, { historyDays: 3, ordersPerDay: 40 }, hub.server.services.registry.hooks);
  });
  afterAll(() => hub?.close());

  it('prints one working QR code per table', async () => {
    expect(result.qr).toHaveLength(12);
    expect(result.qr.map((q: any) => q.table_number)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    const scan = await hub.api.withKey(null).get(`/public/qr/${result.qr[4].token}`);
    expect(scan.status).toBe(200);
    expect(scan.body.table).toEqual({ id: result.qr[4].table, number: 5 });
    const order = await hub.api.withKey(null).get(`/public/qr/${result.qr[4].token}/menu`);
    expect(order.body.items.length).toBeGreaterThan(10);
  });

  it('writes days of past orders that add up, numbered per day, with change-log rows', async () => {
    const db = hub.server.services.db;
    const orders = await db.selectFrom('orders').selectAll().where('restaurant_id', '=', hub.restaurant.id).execute();
    expect(orders.length).toBeGreaterThan(3 * 40 * 0.7);
    const dates = new Set(orders.map((o) => o.business_date));
    expect(dates.size).toBe(3);
    const completed = orders.filter((o) => o.status === 'completed').length;
    expect(completed / orders.length).toBeGreaterThan(0.85);
    expect(orders.every((o) => ['completed', 'cancelled'].includes(o.status))).toBe(true);
    expect(new Set(orders.map((o) => o.type))).toEqual(new Set(['dine_in', 'takeout', 'delivery']));
    const lines = await db.selectFrom('order_items').selectAll().where('restaurant_id', '=', hub.restaurant.id).execute();
    for (const o of orders.slice(0, 50)) {
      const mine = lines.filter((l) => l.order_id === o.id);
      expect(mine.length).toBeGreaterThan(0);
      expect(o.subtotal).toBe(mine.reduce((s, l) => s + l.line_subtotal, 0));
      expect(o.tax_amount).toBe(mine.reduce((s, l) => s + l.tax_amount, 0));
      expect(o.total).toBe(o.subtotal + o.tax_amount - o.discount_amount + o.tip_amount + o.delivery_fee);
    }
    for (const d of dates) {
      const nums = orders.filter((o) => o.business_date === d).map((o) => Number(o.order_number));
      expect(new Set(nums).size).toBe(nums.length);
    }
    const logged = await db.selectFrom('change_log').select((eb) => eb.fn.countAll<number>().as('n')).where('table_name', '=', 'orders').executeTakeFirstOrThrow();
    expect(Number(logged.n)).toBe(orders.length);
    const seqs = await db.selectFrom('change_log').select('seq').orderBy('seq').execute();
    expect(seqs.every((r, i) => i === 0 || Number(r.seq) === Number(seqs[i - 1].seq) + 1)).toBe(true);
    const v1 = await hub.api.get('/v1/orders?limit=5&status=completed');
    expect(v1.body.data).toHaveLength(5);
  });
});
