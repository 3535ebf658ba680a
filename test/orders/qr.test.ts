import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderChange } from '../../server/domain/orders/hooks.ts';
import { features } from '../../server/features/index.ts';
import { DIALECTS } from '../helpers/db.ts';
import { ApiClient, countRows, startHub, type TestHub } from '../helpers/server.ts';
import { seedMenu, snapshot, type Menu } from './fixtures.ts';

// a feature of this test's server only: what every order command hands its hooks
const changes: OrderChange[] = [];
const spy = { name: 'test-spy', orderHooks: [{ name: 'test-spy', change: async (_trx: unknown, change: OrderChange) => void changes.push(change) }] };

describe.each(DIALECTS)('QR guest ordering on %s', (dialect) => {
  let hub: TestHub;
  let menu: Menu;
  let guest: ApiClient;
  let qr: any;
  let qr2: any;
  let dinner: string;
  let weekend: string;
  beforeAll(async () => {
    // Monday 2 Nov 2026, 12:00 UTC = 13:00 in Berlin
    hub = await startHub(dialect, { config: { publicUrl: 'http://hub.local:8080' }, features: [...features, spy] });
    menu = await seedMenu(hub);
    guest = hub.api.withKey(null);
    qr = (await hub.api.post('/v1/qr_codes', { table: menu.table, label: 'Table by the window' })).body;
    qr2 = (await hub.api.post('/v1/qr_codes', { table: menu.table2 })).body;
    const dinnerCat = (await hub.api.post('/v1/menu_categories', { name: 'Dinner', available_from: '18:00', available_until: '23:00' })).body;
    dinner = (await hub.api.post('/v1/menu_items', { name: 'Ossobuco', category: dinnerCat.id, price: 2400 })).body.id;
    const weekendCat = (await hub.api.post('/v1/menu_categories', { name: 'Brunch', available_days: ['saturday', 'sunday'] })).body;
    weekend = (await hub.api.post('/v1/menu_items', { name: 'Eggs', category: weekendCat.id, price: 900 })).body.id;
  });
  afterAll(() => hub?.close());

  it('creates, lists and disables QR codes with an unguessable token and a URL to print', async () => {
    expect(qr).toMatchObject({ object: 'qr_code', type: 'dine_in', table: menu.table, label: 'Table by the window', is_active: true });
    expect(qr.id).toMatch(/^qr_/);
    expect(qr.token).toMatch(/^[0-9A-Za-z]{32}$/);
    expect(qr.url).toBe(`http://hub.local:8080/qr/${qr.token}`);
    const takeout = await hub.api.post('/v1/qr_codes', { type: 'takeout', label: 'Counter' });
    expect(takeout.body).toMatchObject({ type: 'takeout', table: null });
    const list = await hub.api.get(`/v1/qr_codes?table=${menu.table}&expand[]=table`);
    expect(list.body.data.map((q: any) => q.id)).toEqual([qr.id]);
    expect(list.body.data[0].table).toMatchObject({ id: menu.table, object: 'table' });
    const spare = (await hub.api.post('/v1/qr_codes', { table: menu.table })).body;
    const disabled = await hub.api.post(`/v1/qr_codes/${spare.id}/disable`, {});
    expect(disabled.body).toMatchObject({ is_active: false });
    expect((await hub.api.post(`/v1/qr_codes/${spare.id}/disable`, {})).body).toEqual(disabled.body);
    expect((await guest.get(`/public/qr/${spare.token}`)).status).toBe(404);
    expect((await guest.post(`/public/qr/${spare.token}/orders`, { items: [{ menuItemId: menu.pasta, quantity: 1 }] })).status).toBe(404);
  });

  it('refuses bad QR code requests with nothing written', async () => {
    const other = await hub.addRestaurant(`qr-${dialect}`);
    const theirs = await seedMenu(hub, other.api, other.restaurant.id);
    const before = await countRows(hub, 'qr_codes');
    const cases: [object, number][] = [
      [{ table: theirs.table }, 404],
      [{ table: 'tbl_nope' }, 404],
      [{ type: 'dine_in' }, 400],
      [{ type: 'takeout', table: menu.table }, 400],
      [{ type: 'boat' }, 400],
      [{ table: menu.table, label: 'x'.repeat(201) }, 400],
    ];
    for (const [body, status] of cases) expect((await hub.api.post('/v1/qr_codes', body)).status, JSON.stringify(body)).toBe(status);
    expect((await hub.api.get(`/v1/qr_codes/${qr.id}`, { key: other.keys.secret })).status).toBe(404);
    expect((await other.api.post(`/v1/qr_codes/${qr.id}/disable`, {})).status).toBe(404);
    expect((await hub.api.get('/v1/qr_codes?is_active=maybe')).status).toBe(400);
    expect((await hub.api.get('/v1/qr_codes', { key: hub.keys.widget })).status).toBe(403);
    expect(await countRows(hub, 'qr_codes')).toBe(before);
  });

  it('resolves a token to restaurant, table, ordering type and categories', async () => {
    const res = await guest.get(`/public/qr/${qr.token}`);
    expect(res.status).toBe(200);
    expect(res.body.restaurant).toMatchObject({ name: 'Test Bistro', currency: 'eur' });
    expect(res.body.table).toMatchObject({ id: menu.table });
    expect(res.body.orderingType).toBe('dine_in');
    const dinnerCat = res.body.categories.find((k: any) => k.name === 'Dinner');
    expect(dinnerCat).toMatchObject({ availableNow: false, availableFrom: '18:00' });
    expect(res.body.categories.find((k: any) => k.name === 'Grill')).toMatchObject({ station: 'grill', availableNow: true });
    expect((await guest.get('/public/qr/not-a-token')).status).toBe(404);
  });

  it('serves a live menu: active, available items of open categories, with stations and time windows', async () => {
    const lunch = await guest.get(`/public/qr/${qr.token}/menu`);
    const names = lunch.body.items.map((i: any) => i.name);
    expect(names).toEqual(expect.arrayContaining(['Carbonara', 'Steak', 'Water']));
    for (const hidden of ['Tiramisu', 'Old dish', 'Ossobuco', 'Eggs']) expect(names).not.toContain(hidden);
    const steak = lunch.body.items.find((i: any) => i.name === 'Steak');
    expect(steak).toMatchObject({ station: 'grill', price: 2990 });
    expect(steak.modifierGroups[0].modifiers.map((m: any) => m.name)).toEqual(['Rare', 'Medium']);
    // 19:30 in Berlin on Monday: dinner is served; the weekend brunch still is not
    hub.clock.set(Date.UTC(2026, 10, 2, 18, 30));
    const evening = (await guest.get(`/public/qr/${qr.token}/menu`)).body.items.map((i: any) => i.name);
    expect(evening).toContain('Ossobuco');
    expect(evening).not.toContain('Eggs');
    // Saturday noon
    hub.clock.set(Date.UTC(2026, 10, 7, 11, 0));
    const saturday = (await guest.get(`/public/qr/${qr.token}/menu`)).body.items.map((i: any) => i.name);
    expect(saturday).toContain('Eggs');
    expect(saturday).not.toContain('Ossobuco');
    // an order for an item outside its window is refused
    const r = await guest.post(`/public/qr/${qr.token}/orders`, { items: [{ menuItemId: dinner, quantity: 1 }] });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('menu_item_unavailable');
    hub.clock.set(Date.UTC(2026, 10, 2, 12, 0));
    void weekend;
  });

  it('places a self-service order for the table, priced from the menu, and adds a second round', async () => {
    const res = await guest.post(`/public/qr/${qr.token}/orders`, {
      customerName: 'Gio',
      notes: 'Birthday',
      items: [
        { menuItemId: menu.steak, quantity: 1, modifiers: ['Medium'], price: 1 },
        { menuItemId: menu.water, quantity: 2 },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'placed', type: 'dine_in', customerName: 'Gio', notes: 'Birthday', subtotal: 2990 + 666 });
    expect(typeof res.body.tableNumber).toBe('number');
    expect(res.body.items.map((l: any) => l.station)).toEqual(['grill', 'bar']);
    const staff = (await hub.api.get(`/v1/orders/${res.body.id}`)).body;
    expect(staff).toMatchObject({ is_self_service: true, status: 'placed', source: 'qr', table: menu.table });
    const screen = hub.api.withKey(hub.keys.widget);
    const grill = await screen.get('/public/orders/kitchen?station=grill&fields=id');
    expect(grill.body.data.map((o: any) => o.id)).toContain(res.body.id);

    await screen.patch(`/public/orders/${res.body.id}/items/0/status`, { status: 'ready' });
    await screen.patch(`/public/orders/${res.body.id}/items/1/status`, { status: 'ready' });
    const round = await guest.post(`/public/qr/${qr.token}/orders/${res.body.id}/items`, { items: [{ menuItemId: menu.pasta, quantity: 1, notes: 'no egg' }] });
    expect(round.status).toBe(201);
    expect(round.body.items).toHaveLength(3);
    expect(round.body.items[2]).toMatchObject({ index: 2, status: 'pending', round: 2, notes: 'no egg', station: 'kitchen' });
    expect(round.body.items[2].sentToKitchenAt).not.toBeNull();
    expect(round.body.status).toBe('ready');
    expect(round.body.subtotal).toBe(2990 + 666 + 1450);
    expect(changes.at(-1)).toMatchObject({ previousStatus: 'ready', newItemIds: [expect.any(String)] });
    expect(changes.at(-1)!.items).toHaveLength(3);
    expect(round.body.total).toBe(round.body.subtotal + round.body.taxAmount);
    const ev = await hub.api.get('/v1/events?limit=1');
    expect(ev.body.data[0]).toMatchObject({ type: 'order.updated' });
    expect(ev.body.data[0].data.object.items).toHaveLength(3);
    const seen = await guest.get(`/public/qr/${qr.token}/orders/${res.body.id}`);
    expect(seen.body).toEqual(round.body);
  });

  it("prices a guest's cart as the order would be, each line and their sum, writing nothing", async () => {
    const before = await snapshot(hub);
    const quote = (items: object[]) => guest.post(`/public/qr/${qr.token}/quote`, { items });
    const q = await quote([{ menuItemId: menu.steak, quantity: 2, modifiers: ['Medium', 'Parmesan'] }, { menuItemId: menu.water, quantity: 3 }]);
    expect(q.status, JSON.stringify(q.body)).toBe(200);
    expect(q.body).toEqual({ currency: expect.any(String), items: [{ price: (2990 + 150) * 2 }, { price: 999 }], subtotal: 6280 + 999 });
    // what the order would refuse, the quote refuses: sold out, a dinner dish at lunch, two donenesses
    expect((await quote([{ menuItemId: menu.soldOut, quantity: 1 }])).body.error.code).toBe('menu_item_unavailable');
    expect((await quote([{ menuItemId: dinner, quantity: 1 }])).body.error.code).toBe('menu_item_unavailable');
    expect((await quote([{ menuItemId: menu.steak, quantity: 1, modifiers: ['Rare', 'Medium'] }])).status).toBe(400);
    expect(await snapshot(hub)).toEqual(before);
  });

  it("a later round with a slower dish raises the order's estimate to it", async () => {
    const first = await guest.post(`/public/qr/${qr.token}/orders`, { items: [{ menuItemId: menu.water, quantity: 1 }] });
    expect((await hub.api.get(`/v1/orders/${first.body.id}`)).body.estimated_time_minutes).toBeNull();
    const round = await guest.post(`/public/qr/${qr.token}/orders/${first.body.id}/items`, { items: [{ menuItemId: menu.steak, quantity: 1, modifiers: ['Rare'] }] });
    expect(round.status).toBe(201);
    expect((await hub.api.get(`/v1/orders/${first.body.id}`)).body.estimated_time_minutes).toBe(20);
    // a quicker dish after it leaves the longest one standing
    await guest.post(`/public/qr/${qr.token}/orders/${first.body.id}/items`, { items: [{ menuItemId: menu.pasta, quantity: 1 }] });
    expect((await hub.api.get(`/v1/orders/${first.body.id}`)).body.estimated_time_minutes).toBe(20);
  });

  it("a guest's retried submit with the same Idempotency-Key makes one order and one round", async () => {
    const orders = async () => Number((await hub.server.services.db.selectFrom('orders').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const body = { items: [{ menuItemId: menu.water, quantity: 2 }] };
    const key = { headers: { 'idempotency-key': 'phone-submit-1' } };
    const before = await orders();
    const first = await guest.post(`/public/qr/${qr.token}/orders`, body, key);
    expect(first.status).toBe(201);
    const again = await guest.post(`/public/qr/${qr.token}/orders`, body, key);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(await orders()).toBe(before + 1);
    // the same key with another body is refused; the key of another table's code is its own
    expect((await guest.post(`/public/qr/${qr.token}/orders`, { items: [{ menuItemId: menu.water, quantity: 3 }] }, key)).status).toBe(422);
    const other = await guest.post(`/public/qr/${qr2.token}/orders`, body, key);
    expect(other.status).toBe(201);
    expect(other.body.id).not.toBe(first.body.id);
    // a second round, sent twice
    const roundKey = { headers: { 'idempotency-key': 'phone-round-1' } };
    const round = await guest.post(`/public/qr/${qr.token}/orders/${first.body.id}/items`, body, roundKey);
    const roundAgain = await guest.post(`/public/qr/${qr.token}/orders/${first.body.id}/items`, body, roundKey);
    expect(roundAgain.body).toEqual(round.body);
    expect((await guest.get(`/public/qr/${qr.token}/orders/${first.body.id}`)).body.items).toHaveLength(2);
  });

  it('refuses orders not opened from a QR code of the same table exactly like unknown ones', async () => {
    const mine = (await guest.post(`/public/qr/${qr.token}/orders`, { items: [{ menuItemId: menu.water, quantity: 1 }] })).body;
    const staffOrder = (await hub.api.post('/v1/orders', { type: 'dine_in', table: menu.table, items: [{ menu_item: menu.water, quantity: 1 }] })).body;
    const other = await hub.addRestaurant(`qr2-${dialect}`);
    const theirMenu = await seedMenu(hub, other.api, other.restaurant.id);
    const theirQr = (await other.api.post('/v1/qr_codes', { table: theirMenu.table })).body;
    const theirOrder = (await guest.post(`/public/qr/${theirQr.token}/orders`, { items: [{ menuItemId: theirMenu.water, quantity: 1 }] })).body;
    // a second code on the same table sees the table's order
    const sameTable = (await hub.api.post('/v1/qr_codes', { table: menu.table })).body;
    expect((await guest.get(`/public/qr/${sameTable.token}/orders/${mine.id}`)).status).toBe(200);

    const unknown = await guest.get(`/public/qr/${qr.token}/orders/ord_01UNKNOWN`);
    expect(unknown.status).toBe(404);
    const before = await snapshot(hub);
    for (const [token, id] of [
      [qr2.token, mine.id],
      [qr.token, staffOrder.id],
      [qr.token, theirOrder.id],
      [theirQr.token, mine.id],
    ]) {
      const get = await guest.get(`/public/qr/${token}/orders/${id}`);
      expect(get.status).toBe(404);
      expect(get.body.error.code).toBe(unknown.body.error.code);
      const add = await guest.post(`/public/qr/${token}/orders/${id}/items`, { items: [{ menuItemId: menu.water, quantity: 1 }] });
      expect(add.status).toBe(404);
    }
    expect(await snapshot(hub)).toEqual(before);
  });

  it('refuses bad guest orders with nothing written', async () => {
    const mine = (await guest.post(`/public/qr/${qr.token}/orders`, { items: [{ menuItemId: menu.water, quantity: 1 }] })).body;
    const closed = (await guest.post(`/public/qr/${qr.token}/orders`, { items: [{ menuItemId: menu.water, quantity: 1 }] })).body;
    await hub.api.patch(`/v1/orders/${closed.id}`, { status: 'completed' });
    const before = await snapshot(hub);
    const bodies: object[] = [
      {},
      { items: [] },
      { items: [{ menuItemId: menu.pasta, quantity: 0 }] },
      { items: [{ menuItemId: menu.pasta, quantity: -1 }] },
      { items: [{ menuItemId: menu.pasta, quantity: 0.5 }] },
      { items: [{ menuItemId: menu.pasta, quantity: 500 }] },
      { items: [{ menuItemId: menu.soldOut, quantity: 1 }] },
      { items: [{ menuItemId: 'mi_nope', quantity: 1 }] },
      { items: [{ menuItemId: menu.steak, quantity: 1, modifiers: ['Rare', 'Medium'] }] },
      { items: [{ menuItemId: menu.pasta, quantity: 1 }], notes: 'x'.repeat(1001) },
      { items: [{ menuItemId: menu.pasta, quantity: 1 }], customerName: 'x'.repeat(201) },
      { items: Array.from({ length: 150 }, () => ({ menuItemId: menu.pasta, quantity: 1 })) },
    ];
    for (const body of bodies) {
      const r = await guest.post(`/public/qr/${qr.token}/orders`, body);
      expect(r.status, JSON.stringify(body).slice(0, 100)).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
      // a round carries only items; whole-order fields are not part of its body
      if ('notes' in body || 'customerName' in body) continue;
      const add = await guest.post(`/public/qr/${qr.token}/orders/${mine.id}/items`, body);
      expect(add.status).toBeGreaterThanOrEqual(400);
      expect(add.status).toBeLessThan(500);
    }
    const late = await guest.post(`/public/qr/${qr.token}/orders/${closed.id}/items`, { items: [{ menuItemId: menu.water, quantity: 1 }] });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('order_not_open');
    expect((await guest.post(`/public/qr/${qr.token}/orders`, { items: [{ menuItemId: menu.water, quantity: 1 }] }, { headers: { 'content-type': 'text/plain' } })).status).toBe(415);
    expect(await snapshot(hub)).toEqual(before);
  });
});
