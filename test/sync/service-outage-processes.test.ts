import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../server/db/schema.ts';
import { until } from '../helpers/comanda-process.ts';
import { DIALECTS } from '../helpers/db.ts';
import { SessionClient } from '../service/session-client.ts';
import { ok, startProcessPair, type ProcessPair } from './process-pair.ts';

/**
 * Issue #24's outage, between real processes as a venue runs them: the hub and the cloud are
 * each a `comanda serve`, linked through a TCP proxy that plays the internet. The line is cut;
 * a server signed in with her PIN on a tablet rings in two tables through the hub's API (seats,
 * a held course, a round the tablet sent twice), sends, fires the held course and voids a line
 * with a manager's PIN; the line comes back, and the
 * cloud has every order, line and void exactly once, as the hub has them, with
 * `comanda sync audit` clean. (service-outage.test.ts runs a longer service in one process.)
 */
for (const dialect of DIALECTS.filter((d) => d === 'postgres')) {
  describe(`service at the table through an outage, hub and cloud as processes (cloud on ${dialect})`, { timeout: 120_000 }, () => { // 120 s: hub and cloud (processes or a pair), the line cut and restored: several sync rounds
    let pair: ProcessPair;
    const menu = { pasta: '', steak: '', water: '', table1: '', table2: '' };
    const staff = { manager: '', server: '' };

    beforeAll(async () => {
      pair = await startProcessPair({
        name: 'Trattoria Linea',
        beforeLink: async (api) => {
          await ok(api.post('/v1/stations', { key: 'grill', name: 'Grill' }));
          const pasta = await ok(api.post('/v1/menu_categories', { name: 'Pasta' }));
          const grill = await ok(api.post('/v1/menu_categories', { name: 'Grill', station: 'grill' }));
          const doneness = await ok(api.post('/v1/modifier_groups', { name: 'Doneness', required: true, max_selections: 1, modifiers: [{ name: 'Rare' }, { name: 'Medium' }] }));
          menu.pasta = (await ok(api.post('/v1/menu_items', { name: 'Carbonara', category: pasta.id, price: 1450 }))).id;
          menu.steak = (await ok(api.post('/v1/menu_items', { name: 'Steak', category: grill.id, price: 2990, modifier_groups: [doneness.id] }))).id;
          menu.water = (await ok(api.post('/v1/menu_items', { name: 'Water', category: pasta.id, price: 333 }))).id;
          menu.table1 = (await ok(api.post('/v1/tables', { number: 1, capacity: 4 }))).id;
          menu.table2 = (await ok(api.post('/v1/tables', { number: 2, capacity: 4 }))).id;
          for (const [who, name, role, pin] of [['manager', 'Mia', 'manager', '9753'], ['server', 'Sam', 'server', '2468']] as const) {
            staff[who] = (await ok(api.post('/v1/staff', { name, email: `${name.toLowerCase()}@example.com`, role }))).id;
            await ok(api.post(`/v1/staff/${staff[who]}/password`, { password: `${name} password 1` }));
            await ok(api.post(`/v1/staff/${staff[who]}/pin`, { pin }));
          }
        },
      });
      await pair.converged();
    }, 120_000); // 120 s: hub and cloud (processes or a pair), the line cut and restored: several sync rounds
    // 120 s: the pair's close restores the line, waits for both sides to converge and audits them
    afterAll(() => pair?.close(), 120_000);

    /** A call from the tablet that must go through; its answer's body. */
    const call = async (tablet: SessionClient, method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
      const res = await tablet.request(method, path, body, { headers });
      expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
      return res.body;
    };
    /** Rings an order in at a table and sends it (placed: its fired lines go to the stations). */
    const ringIn = async (tablet: SessionClient, body: object) => {
      const made = await call(tablet, 'POST', '/v1/orders', { type: 'dine_in', ...body });
      expect(made.server).toBe(staff.server);
      return (await call(tablet, 'PATCH', `/v1/orders/${made.id}`, { status: 'placed' })) as { id: string };
    };
    const lines = (db: Kysely<DB>, orderIds: string[]) =>
      db
        .selectFrom('order_items')
        .select(['id', 'order_id', 'idx', 'menu_item_id', 'quantity', 'seat', 'course', 'held', 'voided_at', 'void_reason', 'voided_by', 'sent_to_kitchen_at'])
        .where('order_id', 'in', orderIds)
        .orderBy('order_id')
        .orderBy('idx')
        .execute();

    it('orders rung in, sent, fired and voided on the hub while the line is cut reach the cloud once when it is back', async () => {
      const hub = pair.hubApi();
      // the service tablet: trusted for PINs by the manager, then the server signs in with hers
      const tablet = new SessionClient(pair.hub.url);
      await call(tablet, 'POST', '/v1/auth/login', { email: 'mia@example.com', password: 'Mia password 1' });
      await call(tablet, 'POST', '/v1/auth/pin_device');
      await call(tablet, 'POST', '/v1/auth/logout');
      const refusedBefore = pair.proxy.refused;
      pair.proxy.cut();
      expect((await call(tablet, 'POST', '/v1/auth/pin', { staff: staff.server, pin: '2468' })).staff).toMatchObject({ id: staff.server, role: 'server' });

      // table 1: two seats, the dessert course held
      const first = await ringIn(tablet, {
        table: menu.table1,
        hold_courses: [2],
        items: [
          { menu_item: menu.steak, quantity: 1, modifiers: ['Rare'], seat: 1, course: 1 },
          { menu_item: menu.pasta, quantity: 1, seat: 2, course: 1 },
          { menu_item: menu.pasta, quantity: 1, seat: 2, course: 2 },
        ],
      });
      // a second round, sent twice by a tablet that lost its answer (one Idempotency-Key)
      const round = { items: [{ menu_item: menu.water, quantity: 2, seat: 1 }] };
      const key = { 'Idempotency-Key': 'tablet-7-round-2' };
      expect((await call(tablet, 'POST', `/v1/orders/${first.id}/items`, round, key)).items).toHaveLength(4);
      expect((await call(tablet, 'POST', `/v1/orders/${first.id}/items`, round, key)).items).toHaveLength(4);
      // the held course fired, a line voided with its reason and the manager's PIN
      await call(tablet, 'POST', `/v1/orders/${first.id}/fire`, { course: 2 });
      await call(tablet, 'POST', `/v1/orders/${first.id}/items/1/void`, { reason: 'wrong dish', manager_pin: '9753' });
      // table 2: one seat, everything sent at once
      const second = await ringIn(tablet, { table: menu.table2, items: [{ menu_item: menu.steak, quantity: 2, modifiers: ['Medium'], seat: 1 }] });
      const ours = [first.id, second.id];

      // the hub tried the cloud meanwhile and was refused by the cut line; the cloud has none of it
      await until('the hub tried the cut line', () => pair.proxy.refused > refusedBefore, 30_000);
      expect(await pair.cloudDb.db.selectFrom('orders').select('id').where('id', 'in', ours).execute()).toEqual([]);

      pair.proxy.restore();
      const report = await pair.converged(60_000);
      expect(report.tables.find((t: any) => t.table === 'order_items')).toMatchObject({ in_sync: true });

      // every order and line once, as the hub has them: seats, courses, the fired course, the void
      const atHub = await lines(pair.hubDb.db, ours);
      const atCloud = await lines(pair.cloudDb.db, ours);
      const plain = (rows: typeof atHub) => rows.map((r) => ({ ...r, held: Number(r.held), voided_at: r.voided_at === null ? null : Number(r.voided_at), sent_to_kitchen_at: r.sent_to_kitchen_at === null ? null : Number(r.sent_to_kitchen_at) }));
      expect(plain(atCloud)).toEqual(plain(atHub));
      expect(atCloud).toHaveLength(5);
      expect(new Set(atCloud.map((l) => l.id)).size).toBe(5);
      expect(atCloud.filter((l) => l.voided_at !== null).map((l) => [l.order_id, Number(l.idx), l.void_reason, l.voided_by])).toEqual([[first.id, 1, 'wrong dish', staff.manager]]);
      expect(atCloud.filter((l) => l.order_id === first.id).map((l) => [l.seat, l.course, Number(l.held)])).toEqual([
        [1, 1, 0],
        [2, 1, 0],
        [2, 2, 0],
        [1, null, 0],
      ]);
      const cloud = pair.cloudApi();
      for (const id of ours) {
        const [h, c] = await Promise.all([hub.get(`/v1/orders/${id}`), cloud.get(`/v1/orders/${id}`)]);
        expect(c.status).toBe(200);
        expect(c.body).toMatchObject({ status: h.body.status, table: h.body.table, server: staff.server, subtotal: h.body.subtotal, total: h.body.total });
      }
      // no change applied twice on either side, and each of these orders' events once on the cloud
      for (const db of [pair.hubDb.db, pair.cloudDb.db]) {
        const twice = await db.selectFrom('change_log').select('op_id').where('restaurant_id', '=', pair.restaurantId).groupBy('op_id').having((eb) => eb.fn.countAll(), '>', 1).execute();
        expect(twice).toEqual([]);
      }
      const events = async (db: Kysely<DB>) =>
        (await db.selectFrom('events').select(['id', 'type', 'data']).where('restaurant_id', '=', pair.restaurantId).orderBy('id').execute())
          .filter((e) => ours.includes(JSON.parse(e.data).object?.id))
          .map(({ id, type }) => ({ id, type }));
      const [hubEvents, cloudEvents] = await Promise.all([events(pair.hubDb.db), events(pair.cloudDb.db)]);
      expect(cloudEvents).toEqual(hubEvents);
      expect(cloudEvents.map((e) => e.type)).toEqual(expect.arrayContaining(['order.created', 'order.item_voided']));
    });
  });
}
