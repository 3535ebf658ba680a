import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { hubWithMenu, seedMenu, snapshot, type Menu } from './fixtures.ts';

describe.each(DIALECTS)('v1 orders on %s', (dialect) => {
  let hub: TestHub;
  let menu: Menu;
  hubWithMenu(dialect, (t) => ({ hub, menu } = t));

  const create = (body: unknown, headers?: Record<string, string>) => hub.api.post('/v1/orders', body, { headers });
  const steakLine = (extra: object = {}) => ({ menu_item: menu.steak, quantity: 1, modifiers: ['Rare'], ...extra });

  it('prices from the catalogue, ignoring client prices and names, with per-line tax and stations', async () => {
    const res = await create({
      type: 'dine_in',
      table: menu.table,
      customer_name: 'Ada',
      items: [
        { menu_item: menu.pasta, quantity: 2, modifiers: ['Parmesan', { group: menu.extras, name: 'chili' }], unit_price: 1, name: 'Free pasta' },
        steakLine({ modifiers: ['Medium', 'Truffle'] }),
        { menu_item: menu.water, quantity: 3 },
      ],
      subtotal: 5,
      total: 5,
    });
    expect(res.status).toBe(201);
    const o = res.body;
    expect(o).toMatchObject({ object: 'order', status: 'draft', type: 'dine_in', table: menu.table, source: 'api', livemode: true, currency: 'eur' });
    expect(o.id).toMatch(/^ord_/);
    const [pasta, steak, water] = o.items;
    expect(pasta).toMatchObject({ index: 0, name: 'Carbonara', unit_price: 1450, quantity: 2, station: 'kitchen', status: 'pending' });
    expect(pasta.modifiers).toEqual([
      { group: menu.extras, name: 'Parmesan', price_adjustment: 150 },
      { group: menu.extras, name: 'Chili', price_adjustment: 50 },
    ]);
    expect(steak).toMatchObject({ index: 1, station: 'grill', unit_price: 2990 });
    expect(water).toMatchObject({ index: 2, station: 'bar', unit_price: 333 });
    // (1450+150+50)×2 = 3300; 2990+400 = 3390; 333×3 = 999
    expect(o.subtotal).toBe(3300 + 3390 + 999);
    // 3300×0.19 = 627; 3390×0.19 = 644.1 → 644; 999×0.07 = 69.93 → 70
    expect(o.tax_amount).toBe(627 + 644 + 70);
    expect(o.total).toBe(o.subtotal + o.tax_amount - o.discount_amount + o.tip_amount + o.delivery_fee);
    expect(o.placed_at).toBeNull();
    expect(pasta.sent_to_kitchen_at).toBeNull();
    // the slowest line's preparation time
    expect(o.estimated_time_minutes).toBe(20);
  });

  it('rounds each line half up to the cent', async () => {
    // 250 × 0.07 = 17.5 → 18 (half up), 2 lines: tax is the sum of rounded lines
    await hub.api.patch(`/v1/menu_items/${menu.water}`, { price: 250 });
    const res = await create({ type: 'takeout', items: [{ menu_item: menu.water, quantity: 1 }, { menu_item: menu.water, quantity: 1 }] });
    expect(res.body.tax_amount).toBe(36);
    expect(res.body.total).toBe(536);
    // rates whose × 10,000 lands just below the half in binary: 10000 × 0.07125 = 712.5 → 713
    for (const [rate, tax] of [[0.07125, 713], [0.08875, 888], [0.19, 1900], [0.0725, 725]] as const) {
      await hub.api.patch(`/v1/menu_items/${menu.water}`, { price: 10000, tax_rate: rate });
      const r = await create({ type: 'takeout', items: [{ menu_item: menu.water, quantity: 1 }] });
      expect(r.body.tax_amount, String(rate)).toBe(tax);
    }
    await hub.api.patch(`/v1/menu_items/${menu.water}`, { price: 333, tax_rate: 0.07 });
  });

  it('numbers orders per business day and restarts the next day', async () => {
    const a = await create({ type: 'takeout', items: [steakLine()] });
    const b = await create({ type: 'takeout', items: [steakLine()] });
    expect(Number(b.body.order_number)).toBe(Number(a.body.order_number) + 1);
    hub.clock.advance(24 * 3600_000);
    const c = await create({ type: 'takeout', items: [steakLine()] });
    expect(c.body.order_number).toBe('1');
  });

  it('takes the business day in the restaurant\'s timezone', async () => {
    // 23:30 UTC on 10 Dec is already 11 Dec in Berlin: a new business day, numbered from 1.
    // (The clock only moves forward here: later tests rely on newest-first order.)
    hub.clock.set(Date.UTC(2026, 11, 10, 22, 30));
    await create({ type: 'takeout', items: [steakLine()] });
    hub.clock.set(Date.UTC(2026, 11, 10, 23, 30));
    const late = await create({ type: 'takeout', items: [steakLine()] });
    expect(late.body.order_number).toBe('1');
    const row = await hub.server.services.db.selectFrom('orders').select('business_date').where('id', '=', late.body.id).executeTakeFirstOrThrow();
    expect(row.business_date).toBe('2026-12-11');
  });

  it('records order.created with the full order and links a customer', async () => {
    const res = await create({ type: 'takeout', customer_name: 'Bea', customer_email: 'Bea@Example.com', items: [steakLine()] });
    const ev = await hub.api.get('/v1/events?type=order.created&limit=1');
    expect(ev.body.data[0].data.object).toEqual(res.body);
    expect(ev.body.data[0].livemode).toBe(true);
    const customer = await hub.server.services.db.selectFrom('customers').selectAll().where('email', '=', 'bea@example.com').executeTakeFirst();
    expect(customer?.name).toBe('Bea');
    const row = await hub.server.services.db.selectFrom('orders').select('customer_id').where('id', '=', res.body.id).executeTakeFirstOrThrow();
    expect(row.customer_id).toBe(customer!.id);
  });

  it('answers a create with the order its event carries, expanded for the caller only', async () => {
    // the route answers with the object the event was made from (presented once): the
    // caller's expand[] must fill in the answer and leave the stored event as it was
    const res = await hub.api.post('/v1/orders?expand[]=table', { type: 'dine_in', table: menu.table, items: [steakLine()] });
    expect(res.status).toBe(201);
    expect(res.body.table).toMatchObject({ id: menu.table, object: 'table' });
    const ev = await hub.api.get('/v1/events?type=order.created&limit=1');
    expect(ev.body.data[0].data.object).toEqual({ ...res.body, table: menu.table });
  });

  it('sandbox keys make livemode false orders and events', async () => {
    const res = await hub.api.post('/v1/orders', { type: 'takeout', items: [steakLine()] }, { key: hub.keys.sandbox });
    expect(res.body.livemode).toBe(false);
    expect(res.body.order_number).toMatch(/^T\d+$/);
    // events too belong to one mode: the sandbox key sees the sandbox event, the live key does not
    const ev = await hub.api.get('/v1/events?type=order.created&limit=1', { key: hub.keys.sandbox });
    expect(ev.body.data[0].livemode).toBe(false);
    expect(ev.body.data[0].data.object.id).toBe(res.body.id);
    const live = await hub.api.get('/v1/events?type=order.created&limit=100');
    expect(live.body.data.some((e: any) => e.data.object.id === res.body.id)).toBe(false);
    // each mode sees only its own orders: test orders never reach live screens or integrations
    const sandbox = hub.api.withKey(hub.keys.sandbox);
    expect((await sandbox.get(`/v1/orders/${res.body.id}`)).status).toBe(200);
    expect((await hub.api.get(`/v1/orders/${res.body.id}`)).status).toBe(404);
    expect((await hub.api.patch(`/v1/orders/${res.body.id}`, { status: 'placed' })).status).toBe(404);
    const lists = [(await sandbox.get('/v1/orders?limit=100')).body.data, (await hub.api.get('/v1/orders?limit=100')).body.data];
    expect(lists[0].map((o: any) => o.id)).toEqual([res.body.id]);
    expect(lists[1].some((o: any) => o.id === res.body.id)).toBe(false);
    const placed = await sandbox.patch(`/v1/orders/${res.body.id}`, { status: 'placed' });
    expect(placed.body).toMatchObject({ status: 'placed', livemode: false });
    const screen = hub.api.withKey(hub.keys.widget);
    expect((await screen.get('/public/orders/active?fields=id')).body.data.some((o: any) => o.id === res.body.id)).toBe(false);
    expect((await screen.get(`/public/orders/${res.body.id}`)).status).toBe(404);
  });

  it('a sandbox order links no customer and creates none', async () => {
    const before = await hub.server.services.db.selectFrom('customers').select('id').execute();
    const res = await hub.api.post('/v1/orders', { type: 'takeout', customer_email: 'tester@example.com', customer_phone: '+49 30 9876543', items: [steakLine()] }, { key: hub.keys.sandbox });
    expect(res.status).toBe(201);
    const row = await hub.server.services.db.selectFrom('orders').select('customer_id').where('id', '=', res.body.id).executeTakeFirstOrThrow();
    expect(row.customer_id).toBeNull();
    expect(await hub.server.services.db.selectFrom('customers').select('id').execute()).toEqual(before);
    // nor can a sandbox key write customers directly
    const direct = await hub.api.post('/v1/customers', { email: 'tester@example.com' }, { key: hub.keys.sandbox });
    expect(direct.status).toBe(403);
    expect(direct.body.error.code).toBe('key_type_not_allowed');
    const someone = before[0]?.id ?? (await hub.api.post('/v1/customers', { name: 'Real Guest' })).body.id;
    expect((await hub.api.patch(`/v1/customers/${someone}`, { name: 'Renamed' }, { key: hub.keys.sandbox })).status).toBe(403);
    expect((await hub.server.services.db.selectFrom('customers').select('id').execute()).length).toBeLessThanOrEqual(before.length + 1);
  });

  it('accepts a server of the restaurant and expands table, server and items.menu_item', async () => {
    const owner = await hub.server.services.db.selectFrom('users').select('id').where('restaurant_id', '=', hub.restaurant.id).executeTakeFirstOrThrow();
    const res = await create({ type: 'dine_in', table: menu.table, server: owner.id, items: [steakLine()] });
    const got = await hub.api.get(`/v1/orders/${res.body.id}?expand[]=table&expand[]=server&expand[]=items.menu_item`);
    expect(got.status).toBe(200);
    expect(got.body.table).toMatchObject({ id: menu.table, object: 'table', capacity: 4, status: 'available' });
    expect(typeof got.body.table.number).toBe('number');
    expect(got.body.server).toEqual({ id: owner.id, object: 'staff_user', name: 'Owner', email: expect.any(String), role: 'owner' });
    expect(got.body.items[0].menu_item).toMatchObject({ id: menu.steak, object: 'menu_item', name: 'Steak' });
    const bad = await hub.api.get(`/v1/orders/${res.body.id}?expand=customer`);
    expect(bad.status).toBe(400);
  });

  it('lists newest first with filters and cursors', async () => {
    const t0 = Math.floor(hub.clock.now() / 1000);
    hub.clock.advance(10_000);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      hub.clock.advance(1000);
      ids.push((await create({ type: 'dine_in', table: menu.table2, items: [steakLine()] })).body.id);
    }
    const byTable = await hub.api.get(`/v1/orders?table=${menu.table2}&limit=2`);
    expect(byTable.body.data.map((o: any) => o.id)).toEqual([ids[2], ids[1]]);
    expect(byTable.body.has_more).toBe(true);
    const next = await hub.api.get(`/v1/orders?table=${menu.table2}&limit=2&starting_after=${byTable.body.next_cursor}`);
    expect(next.body.data.map((o: any) => o.id)).toEqual([ids[0]]);
    const back = await hub.api.get(`/v1/orders?table=${menu.table2}&limit=2&ending_before=${next.body.previous_cursor}`);
    expect(back.body.data.map((o: any) => o.id)).toEqual([ids[2], ids[1]]);
    const range = await hub.api.get(`/v1/orders?created.gte=${t0 + 12}&created.lte=${t0 + 12}`);
    expect(range.body.data.map((o: any) => o.id)).toEqual([ids[1]]);
    const types = await hub.api.get('/v1/orders?type=dine_in&status=draft&limit=100');
    expect(types.body.data.every((o: any) => o.type === 'dine_in' && o.status === 'draft')).toBe(true);
    expect(types.body.url).toBe('/v1/orders');
    for (const q of ['status=open', 'type=dine-in', 'created.gte=abc', 'limit=101', 'colour=red']) {
      expect((await hub.api.get(`/v1/orders?${q}`)).status).toBe(400);
    }
  });

  it("filters on several statuses at once (a floor's open checks in one request)", async () => {
    const takeout = async () => {
      const id = (await create({ type: 'takeout', items: [steakLine()] })).body.id as string;
      expect((await hub.api.patch(`/v1/orders/${id}`, { status: 'placed' })).status).toBe(200);
      hub.clock.advance(1000);
      return id;
    };
    const [placed, ready, done] = [await takeout(), await takeout(), await takeout()];
    expect((await hub.api.patch(`/v1/orders/${ready}`, { status: 'ready' })).status).toBe(200);
    expect((await hub.api.patch(`/v1/orders/${done}`, { status: 'completed' })).status).toBe(200);
    const mine = async (q: string) => {
      const r = await hub.api.get(`/v1/orders?type=takeout&limit=100&${q}`);
      expect(r.status, q).toBe(200);
      return r.body.data.map((o: any) => o.id).filter((id: string) => [placed, ready, done].includes(id));
    };
    expect(await mine('status=placed,ready')).toEqual([ready, placed]);
    expect(await mine('status=ready%2Cplaced%2Cready')).toEqual([ready, placed]);
    expect(await mine('status=ready')).toEqual([ready]);
    expect(await mine('status=completed,cancelled')).toEqual([done]);
    for (const q of ['status=placed,open', 'status=placed,', 'status=,placed', 'status=', 'status=placed&status=ready']) {
      const bad = await hub.api.get(`/v1/orders?${q}`);
      expect(bad.status, q).toBe(400);
      expect(bad.body.error.param, q).toBe('status');
    }
  });

  it('moves through the state machine, skipping forward, never backwards', async () => {
    const o = (await create({ type: 'takeout', items: [steakLine()] })).body;
    const placed = await hub.api.patch(`/v1/orders/${o.id}`, { status: 'placed' });
    expect(placed.body).toMatchObject({ status: 'placed' });
    expect(placed.body.placed_at).toBe(Math.floor(hub.clock.now() / 1000));
    expect(placed.body.items[0].sent_to_kitchen_at).not.toBeNull();
    const ready = await hub.api.patch(`/v1/orders/${o.id}`, { status: 'ready' });
    expect(ready.body.status).toBe('ready');
    expect(ready.body.items[0]).toMatchObject({ status: 'ready' });
    const back = await hub.api.patch(`/v1/orders/${o.id}`, { status: 'preparing' });
    expect(back.status).toBe(409);
    expect(back.body.error.code).toBe('invalid_transition');
    expect(back.body.error.message).toContain("'ready'");
    const done = await hub.api.patch(`/v1/orders/${o.id}`, { status: 'completed' });
    expect(done.body).toMatchObject({ status: 'completed' });
    expect(done.body.completed_at).not.toBeNull();
    const events = await hub.api.get('/v1/events?limit=3');
    expect(events.body.data.map((e: any) => e.type)).toEqual(['order.completed', 'order.updated', 'order.updated']);
    expect(events.body.data[0].data.object).toEqual(done.body);
    const cancelDone = await hub.api.post(`/v1/orders/${o.id}/cancel`, {});
    expect(cancelDone.status).toBe(409);
    expect(cancelDone.body.error.code).toBe('invalid_transition');
  });

  it('refuses draft, an unknown status and a cancel without reason, writing nothing', async () => {
    const o = (await create({ type: 'takeout', items: [steakLine()] })).body;
    const before = await snapshot(hub);
    for (const body of [{ status: 'draft' }, { status: 'eaten' }, { status: 'cancelled' }, { status: 'cancelled', cancel_reason: '' }, {}, { status: 3 }]) {
      const res = await hub.api.patch(`/v1/orders/${o.id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const missing = await hub.api.patch(`/v1/orders/${o.id}`, { status: 'cancelled' });
    expect(missing.body.error).toMatchObject({ code: 'parameter_missing', param: 'cancel_reason' });
    expect(await snapshot(hub)).toEqual(before);
    expect((await hub.api.get(`/v1/orders/${o.id}`)).body.status).toBe('draft');
  });

  it('cancels with a reason through PATCH and idempotently through the cancel route', async () => {
    const a = (await create({ type: 'takeout', items: [steakLine()] })).body;
    const viaPatch = await hub.api.patch(`/v1/orders/${a.id}`, { status: 'cancelled', cancel_reason: 'Guest left' });
    expect(viaPatch.body).toMatchObject({ status: 'cancelled', cancel_reason: 'Guest left' });
    expect(viaPatch.body.cancelled_at).not.toBeNull();
    const again = await hub.api.patch(`/v1/orders/${a.id}`, { status: 'cancelled', cancel_reason: 'x' });
    expect(again.status).toBe(409);

    const b = (await create({ type: 'takeout', items: [steakLine()] })).body;
    await hub.api.patch(`/v1/orders/${b.id}`, { status: 'preparing' });
    const first = await hub.api.post(`/v1/orders/${b.id}/cancel`, { cancel_reason: 'Out of beef' });
    expect(first.body).toMatchObject({ status: 'cancelled', cancel_reason: 'Out of beef' });
    const ev = await hub.api.get('/v1/events?type=order.cancelled&limit=1');
    expect(ev.body.data[0].data.cancel_reason).toBe('Out of beef');
    expect(ev.body.data[0].data.object).toEqual(first.body);
    const before = await snapshot(hub);
    const second = await hub.api.post(`/v1/orders/${b.id}/cancel`, {});
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(await snapshot(hub)).toEqual(before);
  });

  it('replays an Idempotency-Key and never makes two orders, even when two requests race', async () => {
    const body = { type: 'takeout', items: [steakLine()] };
    const first = await create(body, { 'Idempotency-Key': 'k-1' });
    const replay = await create(body, { 'Idempotency-Key': 'k-1' });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    const other = await create({ ...body, notes: 'different' }, { 'Idempotency-Key': 'k-1' });
    expect(other.status).toBe(422);

    const before = await snapshot(hub);
    const raced = await Promise.all(Array.from({ length: 4 }, () => create(body, { 'Idempotency-Key': 'race-1' })));
    const ok = raced.filter((r) => r.status === 201);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(new Set(ok.map((r) => r.body.id)).size).toBe(1);
    for (const r of raced) expect([201, 409]).toContain(r.status);
    const after = await snapshot(hub);
    expect(after.orders - before.orders).toBe(1);
    expect(after.events - before.events).toBe(1);
  });

  it('refuses bad input with a clear 4xx and writes nothing', async () => {
    const other = await hub.addRestaurant(`other-${dialect}`);
    const foreign = await seedMenu(hub, other.api, other.restaurant.id);
    const before = await snapshot(hub);
    const cases: [unknown, number, string, string?][] = [
      [{ type: 'takeout', items: [{ menu_item: menu.pasta, quantity: 0 }] }, 400, 'parameter_invalid', 'items[0].quantity'],
      [{ type: 'takeout', items: [{ menu_item: menu.pasta, quantity: -2 }] }, 400, 'parameter_invalid', 'items[0].quantity'],
      [{ type: 'takeout', items: [{ menu_item: menu.pasta, quantity: 1.5 }] }, 400, 'parameter_invalid', 'items[0].quantity'],
      [{ type: 'takeout', items: [{ menu_item: menu.pasta, quantity: 100 }] }, 400, 'parameter_invalid', 'items[0].quantity'],
      [{ type: 'takeout', items: [{ menu_item: menu.pasta, quantity: '2' }] }, 400, 'parameter_invalid', 'items[0].quantity'],
      [{ type: 'takeout', items: [{ menu_item: menu.pasta }] }, 400, 'parameter_missing', 'items[0].quantity'],
      [{ type: 'takeout', items: [] }, 400, 'parameter_invalid', 'items'],
      [{ type: 'takeout' }, 400, 'parameter_missing', 'items'],
      [{ items: [{ menu_item: menu.pasta, quantity: 1 }] }, 400, 'parameter_missing', 'type'],
      [{ type: 'dine-in', items: [{ menu_item: menu.pasta, quantity: 1 }] }, 400, 'parameter_invalid', 'type'],
      [{ type: 'takeout', items: Array.from({ length: 300 }, () => ({ menu_item: menu.pasta, quantity: 1 })) }, 400, 'parameter_invalid', 'items'],
      [{ type: 'takeout', items: [{ menu_item: 'mi_nope', quantity: 1 }] }, 404, 'resource_missing', 'items[0].menu_item'],
      [{ type: 'takeout', items: [steakLine(), { menu_item: foreign.pasta, quantity: 1 }] }, 404, 'resource_missing', 'items[1].menu_item'],
      [{ type: 'takeout', items: [{ menu_item: menu.soldOut, quantity: 1 }] }, 400, 'menu_item_unavailable', 'items[0].menu_item'],
      [{ type: 'takeout', items: [{ menu_item: menu.retired, quantity: 1 }] }, 400, 'menu_item_unavailable', 'items[0].menu_item'],
      [{ type: 'takeout', items: [{ menu_item: menu.steak, quantity: 1 }] }, 400, 'modifier_invalid', 'items[0].modifiers'],
      [{ type: 'takeout', items: [steakLine({ modifiers: ['Rare', 'Medium'] })] }, 400, 'modifier_invalid', 'items[0].modifiers'],
      [{ type: 'takeout', items: [steakLine({ modifiers: ['Rare', 'Parmesan', 'Chili', 'Truffle'] })] }, 400, 'modifier_invalid', 'items[0].modifiers'],
      [{ type: 'takeout', items: [steakLine({ modifiers: ['Well done'] })] }, 400, 'modifier_invalid', 'items[0].modifiers[0]'],
      [{ type: 'takeout', items: [steakLine({ modifiers: ['Rare', 'Ketchup'] })] }, 400, 'modifier_invalid', 'items[0].modifiers[1]'],
      [{ type: 'takeout', items: [steakLine({ modifiers: ['Rare', 'Chili', 'chili'] })] }, 400, 'modifier_invalid', 'items[0].modifiers[2]'],
      [{ type: 'takeout', items: [steakLine({ notes: 'x'.repeat(501) })] }, 400, 'parameter_invalid', 'items[0].notes'],
      [{ type: 'takeout', notes: 'x'.repeat(1001), items: [steakLine()] }, 400, 'parameter_invalid', 'notes'],
      [{ type: 'takeout', customer_name: 'x'.repeat(201), items: [steakLine()] }, 400, 'parameter_invalid', 'customer_name'],
      [{ type: 'takeout', customer_email: 'not-an-email', items: [steakLine()] }, 400, 'parameter_invalid', 'customer_email'],
      [{ type: 'dine_in', table: foreign.table, items: [steakLine()] }, 404, 'resource_missing', 'table'],
      [{ type: 'dine_in', table: 'tbl_nope', items: [steakLine()] }, 404, 'resource_missing', 'table'],
      [{ type: 'takeout', table: menu.table, items: [steakLine()] }, 400, 'parameter_invalid', 'table'],
      [{ type: 'dine_in', server: 'usr_nope', items: [steakLine()] }, 404, 'resource_missing', 'server'],
      [{ type: 'delivery', items: [steakLine()] }, 400, 'delivery_address_required', 'delivery_address'],
      [{ type: 'delivery', delivery_address: '   ', items: [steakLine()] }, 400, 'delivery_address_required', 'delivery_address'],
    ];
    for (const [body, status, code, param] of cases) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body).slice(0, 200)).toBe(status);
      expect(res.body.error.code, JSON.stringify(body).slice(0, 200)).toBe(code);
      if (param) expect(res.body.error.param).toBe(param);
    }
    expect(await snapshot(hub)).toEqual(before);
  });

  it('does not resolve unknown or other restaurants\' orders', async () => {
    const other = await hub.addRestaurant(`other2-${dialect}`);
    const theirMenu = await seedMenu(hub, other.api, other.restaurant.id);
    const theirs = await other.api.post('/v1/orders', { type: 'takeout', items: [{ menu_item: theirMenu.water, quantity: 1 }] });
    expect(theirs.status).toBe(201);
    const before = await snapshot(hub);
    expect((await hub.api.get(`/v1/orders/${theirs.body.id}`)).status).toBe(404);
    expect((await hub.api.get('/v1/orders/ord_unknown')).status).toBe(404);
    expect((await hub.api.patch(`/v1/orders/${theirs.body.id}`, { status: 'placed' })).status).toBe(404);
    expect((await hub.api.post(`/v1/orders/${theirs.body.id}/cancel`, {})).status).toBe(404);
    expect(await snapshot(hub)).toEqual(before);
    const widget = await hub.api.get('/v1/orders', { key: hub.keys.widget });
    expect(widget.status).toBe(403);
  });
});

describe.each(DIALECTS)('order numbers on a cloud node (%s)', (dialect) => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub(dialect, { config: { role: 'cloud' } });
  });
  afterAll(() => hub?.close());

  it('carries the node tag, so numbers made while the hub is offline never collide with the hub\'s', async () => {
    const menu = await seedMenu(hub);
    const a = await hub.api.post('/v1/orders', { type: 'takeout', items: [{ menu_item: menu.water, quantity: 1 }] });
    const b = await hub.api.post('/v1/orders', { type: 'takeout', items: [{ menu_item: menu.water, quantity: 1 }] });
    expect([a.body.order_number, b.body.order_number]).toEqual(['C1', 'C2']);
  });
});
