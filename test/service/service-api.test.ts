import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { seedMenu, type Menu } from '../orders/fixtures.ts';
import { SessionClient } from './session-client.ts';

/** Service at the table through the API: tax-inclusive totals, held courses, void, discount, transfer, PINs. */
describe.each(DIALECTS)('service at the table on %s', (dialect) => {
  let hub: TestHub;
  let menu: Menu;
  const tickets = async (orderId: string) =>
    (await hub.server.services.db.selectFrom('print_jobs').select(['document', 'station', 'kind']).where('order_id', '=', orderId).orderBy('created').orderBy('id').execute()).map((j) => ({
      station: j.station,
      kind: j.kind,
      document: j.document,
    }));

  beforeAll(async () => {
    hub = await startHub(dialect);
    menu = await seedMenu(hub);
    // one emulated printer per station is enough to see tickets as documents: the job rows are what we read
    for (const station of ['kitchen', 'grill', 'bar']) {
      const r = await hub.api.post('/v1/printers', { name: `P ${station}`, transport: { type: 'tcp', host: '127.0.0.1', port: 9 }, stations: [station] });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
    }
  });
  afterAll(() => hub?.close());

  it('prices tax-inclusive when the restaurant says so: tax is the part inside, the total is what the menu said', async () => {
    expect((await hub.api.patch('/v1/settings', { prices_include_tax: true })).body.prices_include_tax).toBe(true);
    const res = await hub.api.post('/v1/orders', {
      type: 'takeout',
      items: [
        { menu_item: menu.pasta, quantity: 1 }, // 1450 at 19 %: 1450 × 0.19 / 1.19 = 231.5… → 232
        { menu_item: menu.water, quantity: 3 }, // 999 at 7 %: 999 × 0.07 / 1.07 = 65.35… → 65
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ prices_include_tax: true, subtotal: 2449, tax_amount: 232 + 65, total: 2449 });
    expect(res.body.items.map((i: any) => i.held)).toEqual([false, false]);
    // a half cent rounds up: 10 × 0.05 / 1.05 = 0.476 → 0; 21 × 0.05 / 1.05 = 1.0 → 1; 1050 at 5 % → exactly 50
    await hub.api.patch(`/v1/menu_items/${menu.water}`, { price: 1050, tax_rate: 0.05 });
    const half = await hub.api.post('/v1/orders', { type: 'takeout', items: [{ menu_item: menu.water, quantity: 1 }] });
    expect(half.body).toMatchObject({ subtotal: 1050, tax_amount: 50, total: 1050 });
    await hub.api.patch(`/v1/menu_items/${menu.water}`, { price: 333, tax_rate: 0.07 });

    // the receipt states the tax inside, per rate, after the total
    const placed = await hub.api.patch(`/v1/orders/${res.body.id}`, { status: 'completed' });
    expect(placed.status).toBe(200);
    const receipt = await hub.api.post(`/v1/orders/${res.body.id}/receipt`, { printer: (await hub.api.get('/v1/printers')).body.data[0].id });
    expect(receipt.status, JSON.stringify(receipt.body)).toBeLessThan(300);
    const doc = (await tickets(res.body.id)).find((j) => j.kind === 'receipt')!.document;
    expect(doc).toContain('|incl. tax 19 % | 2.32');
    expect(doc).toContain('|incl. tax 7 % | 0.65');
    expect(doc).toContain('^24.49');
    expect(doc).not.toMatch(/\|plus tax /);

    // an order keeps the way it was priced: switching the setting back changes new orders only
    await hub.api.patch('/v1/settings', { prices_include_tax: false });
    const exclusive = await hub.api.post('/v1/orders', { type: 'takeout', items: [{ menu_item: menu.pasta, quantity: 1 }] });
    expect(exclusive.body).toMatchObject({ prices_include_tax: false, subtotal: 1450, tax_amount: 276, total: 1726 });
    expect((await hub.api.get(`/v1/orders/${res.body.id}`)).body.total).toBe(2449);
    await hub.api.patch('/v1/settings', { prices_include_tax: true });
  });

  it('places an order with the request that makes it (a server’s Send): tickets at once, the held course kept back; any other status refused, nothing written', async () => {
    const orders = async () => Number((await hub.server.services.db.selectFrom('orders').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const items = [
      { menu_item: menu.steak, quantity: 1, modifiers: ['Rare'], seat: 1, course: 1 },
      { menu_item: menu.pasta, quantity: 1, seat: 2, course: 2 },
    ];
    const before = await orders();
    const refused = await hub.api.post('/v1/orders', { type: 'takeout', items, status: 'preparing' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'parameter_invalid', param: 'status' });
    expect(await orders()).toBe(before);

    const sent = await hub.api.post('/v1/orders', { type: 'takeout', items, hold_courses: [2], status: 'placed' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    expect(sent.body.status).toBe('placed');
    expect(sent.body.placed_at).not.toBeNull();
    expect(sent.body.items.map((i: any) => [i.held, i.sent_to_kitchen_at !== null])).toEqual([
      [false, true],
      [true, false],
    ]);
    // the steak's ticket with no PATCH; the held pasta is nowhere until its course is fired
    expect((await tickets(sent.body.id)).map((j) => j.station)).toEqual(['grill']);
    // without a status it is a draft, as before: no ticket
    const draft = await hub.api.post('/v1/orders', { type: 'takeout', items });
    expect(draft.body.status).toBe('draft');
    expect(await tickets(draft.body.id)).toEqual([]);
  });

  it('holds a course until it is fired, voids a sent line with a void ticket, and moves the check to another table', async () => {
    const created = await hub.api.post('/v1/orders', {
      type: 'dine_in',
      table: menu.table,
      hold_courses: [3],
      items: [
        { menu_item: menu.steak, quantity: 1, modifiers: ['Rare'], seat: 1, course: 2 },
        { menu_item: menu.pasta, quantity: 1, modifiers: ['Chili'], seat: 2, course: 2 },
        { menu_item: menu.pasta, quantity: 1, seat: 1, course: 3, notes: 'dessert stand-in' },
      ],
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect(created.body.items.map((i: any) => i.held)).toEqual([false, false, true]);
    await hub.api.patch(`/v1/orders/${id}`, { status: 'placed' });
    let jobs = await tickets(id);
    // the grill's steak and the kitchen's first pasta; the held course is nowhere
    expect(jobs.map((j) => j.station).sort()).toEqual(['grill', 'kitchen']);
    expect(jobs.find((j) => j.station === "kitchen")!.document).not.toContain("Course 3");
    expect(jobs.find((j) => j.station === 'grill')!.document).toContain('Seat 1 · Course 2');
    const placed = (await hub.api.get(`/v1/orders/${id}`)).body;
    expect(placed.items[2].sent_to_kitchen_at).toBeNull();

    // the kitchen's screens read the same: the held line is not on /public/orders/kitchen
    const kds = await hub.api.get('/public/orders/kitchen?station=kitchen', { key: hub.keys.widget });
    const onScreen = (kds.body.data ?? kds.body).find((o: any) => o.id === id);
    expect(onScreen.items.map((i: any) => i.notes ?? null)).not.toContain('dessert stand-in');

    const fired = await hub.api.post(`/v1/orders/${id}/fire`, { course: 3 });
    expect(fired.status).toBe(200);
    expect(fired.body.items[2].held).toBe(false);
    expect(fired.body.items[2].sent_to_kitchen_at).not.toBeNull();
    const afterFire = await tickets(id);
    expect(afterFire).toHaveLength(3);
    const fireTicket = afterFire.filter((j) => !jobs.some((old) => old.document === j.document));
    expect(fireTicket).toHaveLength(1);
    expect(fireTicket[0].station).toBe('kitchen');
    expect(fireTicket[0].document).toContain("Seat 1 · Course 3");
    // only the fired course: the pasta of course 2 is not cooked twice
    expect(fireTicket[0].document).not.toContain('Chili');
    jobs = afterFire;
    // firing it again: nothing held any more
    expect((await hub.api.post(`/v1/orders/${id}/fire`, { course: 3 })).status).toBe(409);

    const before = fired.body.total;
    const voided = await hub.api.post(`/v1/orders/${id}/items/0/void`, { reason: 'sent to the wrong table' });
    expect(voided.status).toBe(200);
    expect(voided.body.items[0]).toMatchObject({ void_reason: 'sent to the wrong table' });
    expect(voided.body.items[0].voided_at).not.toBeNull();
    expect(voided.body.total).toBe(before - 2990);
    const afterVoid = await tickets(id);
    expect(afterVoid).toHaveLength(4);
    const voidTicket = afterVoid.filter((j) => !jobs.some((old) => old.document === j.document));
    expect(voidTicket).toHaveLength(1);
    expect(voidTicket[0].station).toBe('grill');
    expect(voidTicket[0].document).toContain('VOID 1 x Steak');
    expect(voidTicket[0].document).toContain('Reason: sent to the wrong table');
    expect((await hub.api.post(`/v1/orders/${id}/items/0/void`, {})).status).toBe(400);

    // the check moves; the table it left is free for a new one, the one it went to refuses a second
    const moved = await hub.api.post(`/v1/orders/${id}/transfer`, { table: menu.table2 });
    expect(moved.status).toBe(200);
    expect(moved.body.table).toBe(menu.table2);
    const other = await hub.api.post('/v1/orders', { type: 'dine_in', table: menu.table, items: [{ menu_item: menu.water, quantity: 1 }] });
    expect((await hub.api.post(`/v1/orders/${other.body.id}/transfer`, { table: menu.table2 })).status).toBe(409);

    // seats: the pasta moves to seat 3
    const seats = await hub.api.post(`/v1/orders/${id}/move_items`, { items: [1], seat: 3 });
    expect(seats.body.items[1].seat).toBe(3);

    const events = (await hub.api.get('/v1/events?limit=100')).body.data.filter((e: any) => e.data.object.id === id).map((e: any) => e.type);
    expect(events).toEqual(expect.arrayContaining(['order.course_fired', 'order.item_voided', 'order.transferred', 'order.items_moved']));
  });

  it('cancelling a check its stations had prints a VOID ticket per station, none again for a line voided before', async () => {
    const placed = await hub.api.post('/v1/orders', {
      type: 'takeout',
      status: 'placed',
      items: [
        { menu_item: menu.steak, quantity: 1, modifiers: ['Rare'] },
        { menu_item: menu.pasta, quantity: 1 },
        { menu_item: menu.pasta, quantity: 2 },
      ],
    });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    const id = placed.body.id as string;
    expect((await hub.api.post(`/v1/orders/${id}/items/2/void`, { reason: 'burnt' })).status).toBe(200);
    const before = await tickets(id);
    expect(before.map((j) => j.station).sort()).toEqual(['grill', 'kitchen', 'kitchen']);
    expect((await hub.api.post(`/v1/orders/${id}/cancel`, { cancel_reason: 'guests left' })).status).toBe(200);
    const taken = (await tickets(id)).slice(before.length);
    expect(taken.map((j) => j.station).sort()).toEqual(['grill', 'kitchen']);
    expect(taken.find((j) => j.station === 'grill')!.document).toContain('VOID 1 x Steak');
    const kitchen = taken.find((j) => j.station === 'kitchen')!.document;
    expect(kitchen).toContain('VOID 1 x Carbonara');
    expect(kitchen).not.toContain('VOID 2 x Carbonara');
    // a check cancelled before the kitchen had it takes nothing back
    const draft = await hub.api.post('/v1/orders', { type: 'takeout', status: 'draft', items: [{ menu_item: menu.pasta, quantity: 1 }] });
    expect(draft.status, JSON.stringify(draft.body)).toBe(201);
    expect((await hub.api.post(`/v1/orders/${draft.body.id}/cancel`, { cancel_reason: 'mistake' })).status).toBe(200);
    expect(await tickets(draft.body.id)).toEqual([]);
  });

  it('discounts and comps with a reason: lines keep tax on what is left; the check total follows', async () => {
    const o = (
      await hub.api.post('/v1/orders', {
        type: 'dine_in',
        items: [{ menu_item: menu.pasta, quantity: 1 }, { menu_item: menu.water, quantity: 1 }],
      })
    ).body;
    expect(o.total).toBe(1450 + 333);
    const comp = await hub.api.post(`/v1/orders/${o.id}/items/1/discount`, { percent: 100, reason: 'comp: waited too long' });
    expect(comp.status).toBe(200);
    expect(comp.body.items[1]).toMatchObject({ discount_amount: 333, discount_reason: 'comp: waited too long' });
    expect(comp.body).toMatchObject({ subtotal: 1783, discount_amount: 333, tax_amount: 232, total: 1450 });
    const check = await hub.api.post(`/v1/orders/${o.id}/discount`, { amount: 150, reason: 'regular' });
    expect(check.body).toMatchObject({ discount_amount: 483, total: 1300, discount_reason: 'regular' });
    expect((await hub.api.post(`/v1/orders/${o.id}/discount`, { amount: 5000, reason: 'too much' })).status).toBe(400);
    expect((await hub.api.post(`/v1/orders/${o.id}/discount`, { amount: 10, percent: 5, reason: 'both' })).status).toBe(400);
    expect((await hub.api.get(`/v1/orders/${o.id}`)).body.total).toBe(1300);
  });

  it("tells the check's own discount and what it is taken from: line discounts and a voided discounted line aside", async () => {
    const o = (
      await hub.api.post('/v1/orders', {
        type: 'dine_in',
        items: [{ menu_item: menu.pasta, quantity: 2 }, { menu_item: menu.water, quantity: 1 }, { menu_item: menu.pasta, quantity: 1 }],
      })
    ).body;
    expect(o.items.map((l: any) => l.subtotal)).toEqual([2900, 333, 1450]);
    expect(o).toMatchObject({ check_discount_amount: 0, check_discount_base: 2900 + 333 + 1450 });
    expect((await hub.api.post(`/v1/orders/${o.id}/items/0/discount`, { amount: 500, reason: 'regular' })).status).toBe(200);
    expect((await hub.api.post(`/v1/orders/${o.id}/items/2/discount`, { amount: 200, reason: 'slow' })).status).toBe(200);
    const voided = await hub.api.post(`/v1/orders/${o.id}/items/2/void`, { reason: 'sent back' });
    expect(voided.status).toBe(200);
    // the voided line keeps its price and its own discount on show, and counts in neither figure
    expect(voided.body.items[2]).toMatchObject({ subtotal: 1450, discount_amount: 200 });
    expect(voided.body).toMatchObject({ subtotal: 2900 + 333, discount_amount: 500, check_discount_amount: 0, check_discount_base: 2900 - 500 + 333 });
    // the sheet asks first what a discount takes off, by the rule the POST records it by, writing nothing
    const quote = await hub.api.get(`/v1/orders/${o.id}/discount?percent=10`);
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    expect(quote.body).toEqual({ object: 'discount_quote', base: 2733, amount: 273, left: 2460 });
    expect((await hub.api.get(`/v1/orders/${o.id}/items/1/discount?percent=12.5`)).body).toEqual({ object: 'discount_quote', base: 333, amount: 42, left: 291 });
    expect((await hub.api.get(`/v1/orders/${o.id}/items/0/discount?amount=100`)).body).toMatchObject({ base: 2900, amount: 100, left: 2800 });
    expect((await hub.api.get(`/v1/orders/${o.id}/items/2/discount?percent=100`)).status).toBe(409);
    expect((await hub.api.get(`/v1/orders/${o.id}/discount?amount=2734`)).status).toBe(400);
    expect((await hub.api.get(`/v1/orders/${o.id}/discount?amount=5&percent=5`)).status).toBe(400);
    expect((await hub.api.get(`/v1/orders/${o.id}/discount`)).body).toEqual({ object: 'discount_quote', base: 2733, amount: 0, left: 2733 });
    expect((await hub.api.get(`/v1/orders/${o.id}`)).body).toMatchObject({ discount_amount: 500, check_discount_amount: 0 });
    // 10 % of the base the order told: 273.3 → 273; the check's own discount is that, the lines' aside
    const check = await hub.api.post(`/v1/orders/${o.id}/discount`, { percent: 10, reason: 'birthday' });
    expect(check.status).toBe(200);
    expect(check.body).toMatchObject({ discount_amount: 500 + 273, check_discount_amount: 273, check_discount_base: 2733 });
    expect(check.body.items.reduce((s: number, l: any) => s + l.check_discount_amount, 0)).toBe(273);
    expect((await hub.api.get(`/v1/orders/${o.id}`)).body).toMatchObject({ check_discount_amount: 273, check_discount_base: 2733 });
    // an amount off the check is at most the base the order tells
    expect((await hub.api.post(`/v1/orders/${o.id}/discount`, { amount: 2734, reason: 'too much' })).status).toBe(400);
    expect((await hub.api.post(`/v1/orders/${o.id}/discount`, { amount: 2733, reason: 'on the house' })).body).toMatchObject({ check_discount_amount: 2733, total: 0 });
  });

  it('PINs: set by a manager, stored hashed, throttled, only on a trusted device; a server needs a manager PIN to void', async () => {
    const mk = async (name: string, role: string, password: string) => {
      const r = await hub.api.post('/v1/staff', { name, email: `${name.toLowerCase()}@example.com`, role });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      await hub.api.post(`/v1/staff/${r.body.id}/password`, { password });
      return r.body.id as string;
    };
    const manager = await mk('Mia', 'manager', 'manager password 1');
    const server = await mk('Sam', 'server', 'server password 1');
    expect((await hub.api.post(`/v1/staff/${server}/pin`, { pin: '12a4' })).status).toBe(400);
    expect((await hub.api.post(`/v1/staff/${server}/pin`, { pin: '2468' })).body.has_pin).toBe(true);
    expect((await hub.api.post(`/v1/staff/${manager}/pin`, { pin: '9753' })).body.has_pin).toBe(true);
    const stored = await hub.server.services.db.selectFrom('users').select('pin_hash').where('id', '=', server).executeTakeFirstOrThrow();
    expect(stored.pin_hash).not.toContain('2468');

    const tablet = new SessionClient(hub.url, { 'x-forwarded-for': '192.168.1.60' });
    // an untrusted tablet cannot even list names
    expect((await tablet.request('POST', '/v1/auth/pin', { staff: server, pin: '2468' })).status).toBe(401);
    expect((await tablet.request('GET', '/v1/auth/pin_staff')).status).toBe(401);
    // a server's session cannot trust a device; a manager's can
    await tablet.request('POST', '/v1/auth/login', { email: 'sam@example.com', password: 'server password 1' });
    expect((await tablet.request('POST', '/v1/auth/pin_device')).status).toBe(403);
    await tablet.request('POST', '/v1/auth/login', { email: 'mia@example.com', password: 'manager password 1' });
    expect((await tablet.request('POST', '/v1/auth/pin_device')).status).toBe(200);
    await tablet.request('POST', '/v1/auth/logout');
    const names = (await tablet.request('GET', '/v1/auth/pin_staff')).body.data.map((s: any) => s.name);
    expect(names).toEqual(['Mia', 'Sam']);

    expect((await tablet.request('POST', '/v1/auth/pin', { staff: server, pin: '1111' })).status).toBe(401);
    const signedIn = await tablet.request('POST', '/v1/auth/pin', { staff: server, pin: '2468' });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.staff).toMatchObject({ id: server, role: 'server' });

    // the person ringing in is the order's server
    const order = await tablet.request('POST', '/v1/orders', { type: 'dine_in', items: [{ menu_item: menu.pasta, quantity: 1 }] });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    expect(order.body.server).toBe(server);
    await tablet.request('PATCH', `/v1/orders/${order.body.id}`, { status: 'placed' });

    // a server voids only with a manager's PIN, recorded as who approved it
    const refused = await tablet.request('POST', `/v1/orders/${order.body.id}/items/0/void`, { reason: 'guest changed mind' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('approval_required');
    expect((await tablet.request('POST', `/v1/orders/${order.body.id}/items/0/void`, { reason: 'x', manager_pin: '2468' })).status).toBe(403);
    const ok = await tablet.request('POST', `/v1/orders/${order.body.id}/items/0/void`, { reason: 'guest changed mind', manager_pin: '9753' });
    expect(ok.status).toBe(200);
    const line = await hub.server.services.db.selectFrom('order_items').select(['voided_by']).where('order_id', '=', order.body.id).executeTakeFirstOrThrow();
    expect(line.voided_by).toBe(manager);

    // throttled: wrong PINs for one person stop being checked
    const guesser = new SessionClient(hub.url, { 'x-forwarded-for': '192.168.1.61' });
    guesser.cookies = new Map([...tablet.cookies].filter(([k]) => k === 'comanda_pin_device'));
    let limited = false;
    for (let i = 0; i < 12 && !limited; i++) limited = (await guesser.request('POST', '/v1/auth/pin', { staff: manager, pin: String(1000 + i) })).status === 429;
    expect(limited).toBe(true);
  });
});
