import { afterEach, describe, expect, it } from 'vitest';
import { seedMenu } from '../orders/fixtures.ts';
import { until } from '../helpers/until.ts';
import { converged, startPairBehindProxy } from './helpers.ts';

/**
 * Service at the table through an outage: the hub is linked to its cloud through a TCP proxy
 * that plays the internet; the line is cut; staff ring in rounds with seats and a held course,
 * fire it, void, discount, take a payment and merge two checks; the line comes back and every
 * order, line, payment and event is on the cloud exactly once, as the hub has it.
 */
describe('cloud sync: service at the table through an outage', () => {
  let p: Awaited<ReturnType<typeof startPairBehindProxy>> | undefined;
  afterEach(async () => {
    await p?.close();
    p = undefined;
  });

  it('orders rung in while the line is cut reach the cloud once when it is back', { timeout: 180_000 }, async () => { // 180 s: hub and cloud (processes or a pair), the line cut and restored: several sync rounds
    const pair = (p = await startPairBehindProxy());
    const { proxy } = pair;
    const menu = await seedMenu(pair.hub);
    const hub = pair.hub.api;
    const place = async (body: object) => {
      const made = await hub.post('/v1/orders', { type: 'dine_in', ...body });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      return (await hub.patch(`/v1/orders/${made.body.id}`, { status: 'placed' })).body;
    };
    const first = await place({ table: menu.table, items: [{ menu_item: menu.pasta, quantity: 1, seat: 1 }] });
    await pair.link();
    expect((await converged(pair)).ok).toBe(true);

    proxy.cut();
    pair.hub.clock.advance(1000);
    // a second round on table 1, sent twice by a tablet that lost its answer (one Idempotency-Key)
    const round = { items: [{ menu_item: menu.steak, quantity: 1, modifiers: ['Rare'], seat: 2, course: 1 }] };
    const added = await hub.post(`/v1/orders/${first.id}/items`, round, { headers: { 'Idempotency-Key': 'tablet-round-1' } });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect((await hub.post(`/v1/orders/${first.id}/items`, round, { headers: { 'Idempotency-Key': 'tablet-round-1' } })).body.items).toHaveLength(2);
    // table 2: two seats, a held dessert course, then fired; a comp and a payment
    const second = await place({
        table: menu.table2,
        hold_courses: [3],
        items: [
          { menu_item: menu.pasta, quantity: 2, seat: 1, course: 1 },
          { menu_item: menu.water, quantity: 1, seat: 2, course: 1 },
          { menu_item: menu.pasta, quantity: 1, seat: 1, course: 3 },
        ],
    });
    expect((await hub.post(`/v1/orders/${second.id}/fire`, { course: 3 })).status).toBe(200);
    expect((await hub.post(`/v1/orders/${second.id}/items/1/discount`, { percent: 100, reason: 'comp' })).status).toBe(200);
    expect((await hub.post(`/v1/orders/${first.id}/items/0/void`, { reason: 'wrong dish' })).status).toBe(200);
    const payment = await hub.post(`/v1/orders/${second.id}/payments`, { method: 'cash', amount: 500 });
    expect(payment.status, JSON.stringify(payment.body)).toBe(201);
    // the two parties join: table 2's check comes to table 1
    const merged = await hub.post(`/v1/orders/${first.id}/merge`, { from: second.id });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    // the hub did try the cloud meanwhile, and was refused by the cut line
    await until('the hub tried the cut line', async () => proxy.refused > 0, 30_000);

    proxy.restore();
    const { ok, report } = await converged(pair, 60_000);
    expect(report?.differences).toEqual([]);
    expect(ok).toBe(true);

    const cloud = pair.cloudApi;
    const ids = async (api: typeof hub) => (await api.get('/v1/orders?limit=100')).body.data.map((o: any) => o.id).sort();
    expect(await ids(cloud)).toEqual(await ids(hub));
    const atHub = (await hub.get(`/v1/orders/${first.id}`)).body;
    const atCloud = (await cloud.get(`/v1/orders/${first.id}`)).body;
    expect(atCloud.items.map((i: any) => [i.id, i.index, i.seat, i.course, i.held, i.discount_amount, i.voided_at !== null])).toEqual(
      atHub.items.map((i: any) => [i.id, i.index, i.seat, i.course, i.held, i.discount_amount, i.voided_at !== null]),
    );
    expect(atCloud.items).toHaveLength(5);
    expect(atCloud).toMatchObject({ total: atHub.total, amount_paid: 500, discount_amount: atHub.discount_amount });
    expect((await cloud.get(`/v1/orders/${second.id}`)).body).toMatchObject({ status: 'cancelled', merged_into: first.id, items: [] });
    expect((await cloud.get(`/v1/payments?order=${first.id}`)).body.data.map((x: any) => x.id)).toEqual([payment.body.id]);
    // each event once on the cloud
    const events = (await cloud.get('/v1/events?limit=100')).body.data.filter((e: any) => [first.id, second.id].includes(e.data.object.id)).map((e: any) => e.id);
    expect(new Set(events).size).toBe(events.length);
    expect((await cloud.get('/v1/events?type=order.merged&limit=100')).body.data).toHaveLength(1);
  });
});
