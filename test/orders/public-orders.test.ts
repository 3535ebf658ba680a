import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderChange } from '../../server/domain/orders/hooks.ts';
import { features } from '../../server/features/index.ts';
import { insertRecord } from '../../server/db/records.ts';
import { newId, PREFIXES } from '../../server/ids.ts';
import { DIALECTS } from '../helpers/db.ts';
import { ApiClient, startHub, type TestHub } from '../helpers/server.ts';
import { seedMenu, snapshot, type Menu } from './fixtures.ts';

// a feature of this test's server only: what every order command hands its hooks
const seen: OrderChange[] = [];
const spy = { name: 'test-spy', orderHooks: [{ name: 'test-spy', change: async (_trx: unknown, change: OrderChange) => void seen.push(change) }] };

describe.each(DIALECTS)('operational orders on %s', (dialect) => {
  let hub: TestHub;
  let menu: Menu;
  let screen: ApiClient;
  beforeAll(async () => {
    hub = await startHub(dialect, { features: [...features, spy] });
    menu = await seedMenu(hub);
    screen = hub.api.withKey(hub.keys.widget);
  });
  afterAll(() => hub?.close());

  const place = (body: object = {}) =>
    screen.post('/public/orders', {
      type: 'dine-in',
      tableId: menu.table,
      items: [
        { menuItemId: menu.steak, quantity: 1, modifiers: ['Rare'] },
        { menuItemId: menu.pasta, quantity: 2 },
      ],
      ...body,
    });

  it('creates a placed order from dine-in / menuItemId, ignoring sent prices', async () => {
    const res = await place({ items: [{ menuItemId: menu.pasta, quantity: 1, price: 1 }] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ type: 'dine_in', status: 'placed', source: 'pos', tableId: menu.table, total: 1450 + 276 });
    expect(res.body.items[0]).toMatchObject({ index: 0, menuItemId: menu.pasta, unitPrice: 1450, station: 'kitchen', status: 'pending' });
    expect(res.body.items[0].sentToKitchenAt).not.toBeNull();
    expect(res.body.placedAt).not.toBeNull();
    for (const t of ['dine_in', 'takeout', 'Take-Out', 'delivery']) {
      const r = await place({ type: t, tableId: t.startsWith('dine') ? menu.table : null, deliveryAddress: 'Via Roma 1' });
      expect(r.status, t).toBe(201);
    }
  });

  it('lists with fields, filters, sort and a paging block', async () => {
    const def = await screen.get('/public/orders?limit=2');
    expect(def.status).toBe(200);
    expect(Object.keys(def.body.data[0]).sort()).toEqual(['createdAt', 'id', 'orderNumber', 'status', 'total', 'type'].sort());
    expect(def.body.paging).toMatchObject({ page: 1, limit: 2, hasMore: true });
    expect(def.body.paging.total).toBeGreaterThanOrEqual(5);
    const total = def.body.paging.total;
    const p2 = await screen.get('/public/orders?limit=2&page=2');
    expect(p2.body.data[0].id).not.toBe(def.body.data[0].id);
    const all = await screen.get(`/public/orders?limit=100&fields=id,items,tableNumber,customerName,notes,placedAt,taxAmount&sort=total&order=asc`);
    expect(all.body.data).toHaveLength(total);
    const totals = (await screen.get('/public/orders?limit=100&fields=total&sort=total&order=asc')).body.data.map((o: any) => o.total);
    expect(totals).toEqual([...totals].sort((a, b) => a - b));
    // order numbers sort as the numbers staff call out: 9 before 10, not "10" before "9"
    while ((await screen.get('/public/orders?limit=1')).body.paging.total < 12) await screen.post('/public/orders', { type: 'takeout', items: [{ menuItemId: menu.water, quantity: 1 }] });
    const numbers = (await screen.get('/public/orders?limit=100&fields=orderNumber&sort=orderNumber&order=asc')).body.data.map((o: any) => Number(o.orderNumber));
    expect(numbers.length).toBeGreaterThanOrEqual(12);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    const desc = (await screen.get('/public/orders?limit=100&fields=orderNumber&sort=orderNumber&order=desc')).body.data.map((o: any) => Number(o.orderNumber));
    expect(desc).toEqual([...numbers].reverse());
    const detail = await screen.get(`/public/orders/${all.body.data[0].id}?fields=table,server,customer,orderNumber`);
    expect(Object.keys(detail.body).sort()).toEqual(['customer', 'orderNumber', 'server', 'table']);
    expect(Object.keys(detail.body.customer).sort()).toEqual(['email', 'name', 'phone']);
    const withTable = all.body.data.find((o: any) => o.tableNumber !== null);
    expect(typeof withTable.tableNumber).toBe('number');
    expect(Array.isArray(withTable.items)).toBe(true);
    const dine = await screen.get('/public/orders?type=dine-in&status=placed&limit=100&fields=type,status');
    expect(dine.body.data.length).toBeGreaterThan(0);
    expect(dine.body.data.every((o: any) => o.type === 'dine_in' && o.status === 'placed')).toBe(true);
    // names every object has (Object.prototype's) are not fields either
    for (const f of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      for (const path of [`/public/orders?fields=${f}`, `/public/orders/${all.body.data[0].id}?fields=id,${f}`, `/public/orders/kitchen?fields=${f}`]) {
        const r = await screen.get(path);
        expect(r.status, path).toBe(400);
        expect(r.body.error).toMatchObject({ code: 'parameter_invalid', param: 'fields' });
      }
    }
    for (const q of ['fields=id,price', 'fields=', 'limit=101', 'limit=0', 'page=0', 'sort=price', 'order=up', 'status=eaten', 'type=boat', 'colour=red']) {
      const r = await screen.get(`/public/orders?${q}`);
      expect(r.status, q).toBe(400);
    }
  });

  it('refuses secret keys on /public/orders and widget keys on /v1', async () => {
    expect((await hub.api.get('/public/orders')).status).toBe(403);
    expect((await screen.get('/v1/orders')).status).toBe(403);
    expect((await screen.get('/public/orders', { key: null })).status).toBe(401);
  });

  it('never takes literal paths as ids, and another restaurant\'s order is a 404', async () => {
    const other = await hub.addRestaurant(`ops-${dialect}`);
    const theirMenu = await seedMenu(hub, other.api, other.restaurant.id);
    const theirScreen = other.api.withKey(other.keys.widget);
    const theirs = await theirScreen.post('/public/orders', { type: 'takeout', items: [{ menuItemId: theirMenu.water, quantity: 1 }] });
    expect(theirs.status).toBe(201);
    for (const p of ['active', 'kitchen', 'delivery/active']) {
      const r = await screen.get(`/public/orders/${p}`);
      expect(r.status, p).toBe(200);
      expect(Array.isArray(r.body.data)).toBe(true);
      expect(r.body.data.some((o: any) => o.id === theirs.body.id)).toBe(false);
    }
    const before = await snapshot(hub);
    expect((await screen.get(`/public/orders/${theirs.body.id}`)).status).toBe(404);
    expect((await screen.patch(`/public/orders/${theirs.body.id}/status`, { status: 'preparing' })).status).toBe(404);
    expect((await screen.patch(`/public/orders/${theirs.body.id}/items/0/status`, { status: 'preparing' })).status).toBe(404);
    expect((await screen.get(`/public/orders/delivery/${theirs.body.id}/track`)).status).toBe(404);
    expect((await screen.get('/public/orders/delivery')).status).toBe(404);
    expect((await screen.post('/public/orders', { type: 'dine-in', tableId: theirMenu.table, items: [{ menuItemId: menu.pasta, quantity: 1 }] })).status).toBe(404);
    expect((await screen.post('/public/orders', { type: 'takeout', items: [{ menuItemId: theirMenu.pasta, quantity: 1 }] })).status).toBe(404);
    expect(await snapshot(hub)).toEqual(before);
  });

  it('shows active orders and a station\'s kitchen view with only its lines', async () => {
    const o = (await place()).body;
    const active = await screen.get('/public/orders/active?fields=id,status');
    expect(active.body.data.some((x: any) => x.id === o.id)).toBe(true);
    const grill = await screen.get('/public/orders/kitchen?station=grill');
    expect(grill.headers.get('content-type')).toMatch(/^application\/json/);
    const ticket = grill.body.data.find((x: any) => x.id === o.id);
    expect(ticket.items.map((l: any) => l.station)).toEqual(['grill']);
    expect(ticket.items[0]).toMatchObject({ index: 0, name: 'Steak' });
    const all = await screen.get('/public/orders/kitchen');
    expect(all.body.data.find((x: any) => x.id === o.id).items).toHaveLength(2);
    // a draft is not in play
    const draft = await hub.api.post('/v1/orders', { type: 'takeout', items: [{ menu_item: menu.water, quantity: 1 }] });
    expect((await screen.get('/public/orders/active?fields=id')).body.data.some((x: any) => x.id === draft.body.id)).toBe(false);
    const bad = await screen.get('/public/orders/kitchen?station=pizza-oven');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('unknown_station');
    expect((await screen.get('/public/orders/kitchen?fields=recipe')).status).toBe(400);
  });

  it('the order follows its lines: first started → preparing, all ready → ready, all served → served', async () => {
    seen.length = 0;
    const o = (await place()).body;
    expect(seen.at(-1)).toMatchObject({ previousStatus: null });
    expect(seen.at(-1)!.newItemIds).toHaveLength(2);
    const before = await snapshot(hub);
    const wrongStation = await screen.patch(`/public/orders/${o.id}/items/0/status`, { status: 'preparing', station: 'bar' });
    expect(wrongStation.status).toBe(409);
    expect(wrongStation.body.error.param).toBe('station');
    expect(await snapshot(hub)).toEqual(before);
    const s1 = await screen.patch(`/public/orders/${o.id}/items/0/status`, { status: 'preparing', station: 'grill' });
    expect(s1.status).toBe(200);
    expect(s1.body.status).toBe('preparing');
    expect(s1.body.items[0].status).toBe('preparing');
    expect(seen.at(-1)).toMatchObject({ previousStatus: 'placed', changedItemIds: [expect.any(String)] });
    // the grill is done with line 0; the kitchen view of the grill no longer shows the order
    const s2 = await screen.patch(`/public/orders/${o.id}/items/0/status`, { status: 'ready' });
    expect(s2.body.status).toBe('preparing');
    expect(s2.body.items[0].readyAt).not.toBeNull();
    const grill = await screen.get('/public/orders/kitchen?station=grill&fields=id');
    expect(grill.body.data.some((x: any) => x.id === o.id)).toBe(false);
    // a screen polling the same view sees every change at once (the cache follows the change log)
    const again = await screen.get('/public/orders/kitchen?station=grill&fields=id');
    expect(again.body).toEqual(grill.body);
    const fresh = (await place()).body;
    const after = await screen.get('/public/orders/kitchen?station=grill&fields=id');
    expect(after.body.data.map((x: any) => x.id)).toContain(fresh.id);
    const s3 = await screen.patch(`/public/orders/${o.id}/items/1/status`, { status: 'ready' });
    expect(s3.body.status).toBe('ready');
    await screen.patch(`/public/orders/${o.id}/items/0/status`, { status: 'served' });
    const s4 = await screen.patch(`/public/orders/${o.id}/items/1/status`, { status: 'served' });
    expect(s4.body.status).toBe('served');
    const events = await hub.api.get('/v1/events?type=order.updated&limit=1');
    expect(events.body.data[0].data.object.status).toBe('served');
    const backwards = await screen.patch(`/public/orders/${o.id}/items/1/status`, { status: 'pending' });
    expect(backwards.status).toBe(409);
    expect(backwards.body.error.code).toBe('invalid_transition');
  });

  it('moves whole orders and refuses unknown statuses, storing nothing', async () => {
    const o = (await place()).body;
    const before = await snapshot(hub);
    const bad: [object, number][] = [
      [{ status: 'eaten' }, 400],
      [{ status: 'draft' }, 400],
      [{}, 400],
      [{ status: 'cancelled' }, 400],
      [{ status: 7 }, 400],
    ];
    for (const [body, status] of bad) expect((await screen.patch(`/public/orders/${o.id}/status`, body)).status, JSON.stringify(body)).toBe(status);
    for (const [path, body] of [
      ['items/9/status', { status: 'ready' }],
      ['items/x/status', { status: 'ready' }],
      ['items/-1/status', { status: 'ready' }],
      ['items/0/status', { status: 'cooked' }],
      ['items/0/status', {}],
    ] as const) {
      const r = await screen.patch(`/public/orders/${o.id}/${path}`, body);
      expect([400, 404], path).toContain(r.status);
    }
    expect(await snapshot(hub)).toEqual(before);
    expect((await screen.get(`/public/orders/${o.id}?fields=status`)).body).toEqual({ status: 'placed' });
    const ready = await screen.patch(`/public/orders/${o.id}/status`, { status: 'ready' });
    expect(ready.body.status).toBe('ready');
    // hooks see the move with the lines it lifted to ready
    expect(seen.at(-1)).toMatchObject({ previousStatus: 'placed', order: { id: o.id, status: 'ready' } });
    expect(seen.at(-1)!.changedItemIds).toHaveLength(2);
    const done = await screen.patch(`/public/orders/${o.id}/status`, { status: 'completed' });
    expect(done.body.status).toBe('completed');
    const late = await screen.patch(`/public/orders/${o.id}/items/0/status`, { status: 'served' });
    expect(late.status).toBe(409);
    const c = (await place()).body;
    const cancelled = await screen.patch(`/public/orders/${c.id}/status`, { status: 'cancelled', cancelReason: 'Mistake' });
    expect(cancelled.body).toMatchObject({ status: 'cancelled', cancelReason: 'Mistake' });
  });

  it('refuses bad creates with nothing written', async () => {
    const before = await snapshot(hub);
    const cases: object[] = [
      { type: 'boat', items: [{ menuItemId: menu.pasta, quantity: 1 }] },
      { items: [{ menuItemId: menu.pasta, quantity: 1 }] },
      { type: 'takeout', items: [] },
      { type: 'takeout', items: [{ menuItemId: menu.pasta, quantity: 0 }] },
      { type: 'takeout', items: [{ menuItemId: menu.pasta, quantity: 2.5 }] },
      { type: 'takeout', items: [{ menuItemId: menu.pasta, quantity: 1000 }] },
      { type: 'takeout', items: [{ menuItemId: menu.soldOut, quantity: 1 }] },
      { type: 'takeout', items: [{ menuItemId: 'mi_x', quantity: 1 }] },
      { type: 'takeout', items: [{ menuItemId: menu.steak, quantity: 1 }] },
      { type: 'takeout', notes: 'n'.repeat(5000), items: [{ menuItemId: menu.pasta, quantity: 1 }] },
      { type: 'delivery', items: [{ menuItemId: menu.pasta, quantity: 1 }] },
      { type: 'takeout', items: Array.from({ length: 101 }, () => ({ menuItemId: menu.pasta, quantity: 1 })) },
    ];
    for (const body of cases) {
      const r = await screen.post('/public/orders', body);
      expect(r.status, JSON.stringify(body).slice(0, 120)).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
    }
    expect(await snapshot(hub)).toEqual(before);
  });

  it('tracks a delivery through the in-house fleet', async () => {
    const courier = await hub.server.services.tx.run((trx) =>
      insertRecord(trx, 'users', {
        id: newId(PREFIXES.user, hub.clock.now()),
        restaurant_id: hub.restaurant.id,
        email: `rider-${dialect}@x.test`,
        name: 'Rita Rider',
        role: 'courier',
        password_hash: null,
        hourly_rate: null,
        is_active: 1,
        created: 0,
        updated: 0,
      }),
    );
    const o = (await place({ type: 'delivery', tableId: null, deliveryAddress: 'Via Roma 1, Milano', customerName: 'Carla' })).body;
    const listed = await screen.get('/public/orders/delivery/active?fields=id,deliveryAddress');
    expect(listed.body.data).toContainEqual({ id: o.id, deliveryAddress: 'Via Roma 1, Milano' });
    const t0 = await screen.get(`/public/orders/delivery/${o.id}/track`);
    expect(t0.status).toBe(200);
    expect(t0.body).toMatchObject({ orderId: o.id, provider: 'in_house', status: 'awaiting_dispatch', courier: null, dispatchedAt: null });
    hub.clock.advance(60_000);
    await screen.patch(`/public/orders/${o.id}/status`, { status: 'ready' });
    const t1 = await screen.get(`/public/orders/delivery/${o.id}/track`);
    expect(t1.body).toMatchObject({ status: 'dispatched', courier: { name: courier.name }, dispatchedAt: Math.floor(hub.clock.now() / 1000) });
    hub.clock.advance(60_000);
    await screen.patch(`/public/orders/${o.id}/status`, { status: 'served' });
    hub.clock.advance(600_000);
    await screen.patch(`/public/orders/${o.id}/status`, { status: 'completed' });
    const t2 = await screen.get(`/public/orders/delivery/${o.id}/track?fields=status,pickedUpAt,deliveredAt`);
    expect(t2.body).toEqual({ status: 'delivered', pickedUpAt: t1.body.dispatchedAt + 60, deliveredAt: t1.body.dispatchedAt + 660 });
    expect((await screen.get(`/public/orders/delivery/${o.id}/track?fields=speed`)).status).toBe(400);
    const dropped = (await place({ type: 'delivery', tableId: null, deliveryAddress: 'Via Po 3' })).body;
    await screen.patch(`/public/orders/${dropped.id}/status`, { status: 'cancelled', cancelReason: 'Guest cancelled' });
    expect((await screen.get(`/public/orders/delivery/${dropped.id}/track?fields=status`)).body).toEqual({ status: 'cancelled' });
    expect((await screen.get('/public/orders/delivery/active?fields=id')).body.data.some((x: any) => x.id === dropped.id)).toBe(false);
    const takeout = (await place({ type: 'takeout', tableId: null })).body;
    expect((await screen.get(`/public/orders/delivery/${takeout.id}/track`)).status).toBe(404);
  });
});

describe.each(DIALECTS)('orders in the OpenAPI document on %s', (dialect) => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub(dialect);
  });
  afterAll(() => hub?.close());

  it('describes every orders, QR and guest route', async () => {
    const doc = await hub.api.get('/v1/openapi.json');
    expect(doc.status).toBe(200);
    const paths = Object.keys(doc.body.paths);
    for (const p of ['/v1/orders', '/v1/orders/{id}/cancel', '/public/orders/kitchen', '/public/orders/{id}/items/{itemIndex}/status', '/v1/qr_codes', '/public/qr/{token}/orders/{orderId}/items']) {
      expect(paths, p).toContain(p);
    }
  });
});
