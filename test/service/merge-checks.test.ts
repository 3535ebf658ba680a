import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { seedMenu, type Menu } from '../orders/fixtures.ts';

/** Merging two checks: lines, seats and payments move, the other check closes as merged, the kitchen is not fired again. */
describe.each(DIALECTS)('merging two checks on %s', (dialect) => {
  let hub: TestHub;
  let menu: Menu;
  const jobsOf = async (...orderIds: string[]) =>
    (await hub.server.services.db.selectFrom('print_jobs').select(['id', 'order_id', 'document']).where('order_id', 'in', orderIds).orderBy('id').execute()).map((j) => j.id);

  beforeAll(async () => {
    hub = await startHub(dialect);
    menu = await seedMenu(hub);
    for (const station of ['kitchen', 'grill', 'bar']) {
      expect((await hub.api.post('/v1/printers', { name: `P ${station}`, transport: { type: 'tcp', host: '127.0.0.1', port: 9 }, stations: [station] })).status).toBe(201);
    }
  });
  afterAll(() => hub?.close());

  const ring = async (table: string | null, items: object[], hold_courses: number[] = []) => {
    const made = await hub.api.post('/v1/orders', { type: 'dine_in', ...(table ? { table } : {}), items, hold_courses });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const placed = await hub.api.patch(`/v1/orders/${made.body.id}`, { status: 'placed' });
    expect(placed.status).toBe(200);
    return placed.body;
  };

  it('moves lines (seats numbered on), discounts and payments to the check that stays; closes the other; prints nothing again', async () => {
    const a = await ring(menu.table, [
      { menu_item: menu.steak, quantity: 1, modifiers: ['Rare'], seat: 1, course: 1 },
      { menu_item: menu.pasta, quantity: 1, seat: 2, course: 1 },
    ]);
    let b = await ring(
      menu.table2,
      [
        { menu_item: menu.pasta, quantity: 2, seat: 1, course: 1 },
        { menu_item: menu.water, quantity: 1, seat: 2, course: 1 },
        { menu_item: menu.pasta, quantity: 1, seat: 1, course: 3, notes: 'dessert stand-in' },
      ],
      [3],
    );
    // money already on the second check: a comp of its water, a check discount, a payment of part of it
    expect((await hub.api.post(`/v1/orders/${b.id}/items/1/discount`, { percent: 100, reason: 'comp' })).status).toBe(200);
    b = (await hub.api.post(`/v1/orders/${b.id}/discount`, { amount: 100, reason: 'regular' })).body;
    const paid = await hub.api.post(`/v1/orders/${b.id}/payments`, { method: 'cash', amount: 1000, tendered_amount: 1000 });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    const printed = await jobsOf(a.id, b.id);
    expect(printed.length).toBeGreaterThan(0);
    const logBefore = Number((await hub.server.services.db.selectFrom('change_log').select((eb) => eb.fn.max('seq').as('m')).executeTakeFirstOrThrow()).m);

    const merged = await hub.api.post(`/v1/orders/${a.id}/merge`, { from: b.id });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    const m = merged.body;
    expect(m.id).toBe(a.id);
    expect(m.table).toBe(menu.table);
    expect(m.items.map((i: any) => [i.index, i.name, i.seat, i.course, i.held])).toEqual([
      [0, 'Steak', 1, 1, false],
      [1, 'Carbonara', 2, 1, false],
      [2, 'Carbonara', 3, 1, false],
      [3, 'Water', 4, 1, false],
      [4, 'Carbonara', 3, 3, true],
    ]);
    // the lines keep their ids (a payment by lines still names them) and their discounts
    expect(m.items.slice(2).map((i: any) => i.id)).toEqual(b.items.map((i: any) => i.id));
    expect(m.items[3]).toMatchObject({ discount_amount: 333, discount_reason: 'comp' });
    expect(m.total).toBe(a.total + b.total);
    expect(m.discount_amount).toBe(333 + 100);
    expect(m).toMatchObject({ amount_paid: 1000, amount_due: a.total + b.total - 1000, merged_into: null });

    const closed = (await hub.api.get(`/v1/orders/${b.id}`)).body;
    expect(closed).toMatchObject({ status: 'cancelled', merged_into: a.id, cancel_reason: `merged into #${a.order_number}`, items: [], total: 0, amount_paid: 0 });
    const payment = (await hub.api.get(`/v1/payments/${paid.body.id}`)).body;
    expect(payment.order).toBe(a.id);

    // not fired again: no ticket for any line; the held course still waits, then prints alone
    expect(await jobsOf(a.id, b.id)).toEqual(printed);
    const fired = await hub.api.post(`/v1/orders/${a.id}/fire`, { course: 3 });
    expect(fired.status).toBe(200);
    const fresh = (await hub.server.services.db.selectFrom('print_jobs').select(['id', 'document']).where('order_id', '=', a.id).execute()).filter((j) => !printed.includes(j.id));
    expect(fresh).toHaveLength(1);
    expect(fresh[0]!.document).toContain('Seat 3 · Course 3');

    // every row went through records.ts: the change log holds the moved lines, the payment and both orders
    const log = await hub.server.services.db.selectFrom('change_log').select(['table_name', 'row_id', 'data']).where('seq', '>', logBefore).execute();
    for (const line of b.items) expect(log.some((e) => e.table_name === 'order_items' && e.row_id === line.id && JSON.parse(e.data).order_id === a.id)).toBe(true);
    expect(log.some((e) => e.table_name === 'payments' && e.row_id === paid.body.id && JSON.parse(e.data).order_id === a.id)).toBe(true);
    expect(log.some((e) => e.table_name === 'orders' && e.row_id === b.id && JSON.parse(e.data).merged_into === a.id)).toBe(true);

    // the second table is free again; the events say what happened
    const next = await hub.api.post('/v1/orders', { type: 'dine_in', table: menu.table2, items: [{ menu_item: menu.water, quantity: 1 }] });
    expect(next.status).toBe(201);
    const events = (await hub.api.get('/v1/events?limit=100')).body.data;
    expect(events.find((e: any) => e.type === 'order.merged' && e.data.object.id === a.id)).toBeTruthy();
    expect(events.find((e: any) => e.type === 'order.cancelled' && e.data.object.id === b.id)).toBeTruthy();
  });

  it('the emptied check is neither a sale nor a cancellation: day close, dashboard and floor count one check', async () => {
    const tables: string[] = [];
    for (const number of [301, 302]) tables.push((await hub.api.post('/v1/tables', { number, capacity: 4 })).body.id as string);
    const date = async () => (await hub.server.services.db.selectFrom('orders').select('business_date').where('restaurant_id', '=', hub.restaurant.id).orderBy('id', 'desc').executeTakeFirstOrThrow()).business_date;
    const before = (await hub.api.get(`/v1/reports/day_close?date=${await date()}`)).body;
    const dashBefore = (await hub.api.get('/v1/analytics/dashboard')).body;
    const a = await ring(tables[0]!, [{ menu_item: menu.pasta, quantity: 1, seat: 1, course: 1 }]);
    const b = await ring(tables[1]!, [{ menu_item: menu.water, quantity: 2, seat: 1, course: 1 }]);
    const merged = await hub.api.post(`/v1/orders/${a.id}/merge`, { from: b.id });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);

    const close = (await hub.api.get(`/v1/reports/day_close?date=${await date()}`)).body;
    // one more sale, worth the merged check: the emptied one adds neither an order nor money
    expect(close.sales.orders - before.sales.orders).toBe(1);
    expect(close.sales.total - before.sales.total).toBe(merged.body.total);
    expect(close.open_orders.count - before.open_orders.count).toBe(1);
    expect(close.open_orders.orders.map((o: any) => o.id)).not.toContain(b.id);
    // nothing about it is a void, a comp or a discount either
    expect([close.voids, close.comps, close.discounts]).toEqual([before.voids, before.comps, before.discounts]);
    const dash = (await hub.api.get('/v1/analytics/dashboard')).body;
    expect(dash.total_orders - dashBefore.total_orders).toBe(1);
    // the floor: the second table is free (no open check names it), the first holds the one check
    const open = (await hub.api.get('/v1/orders?status=placed')).body.data;
    expect(open.filter((o: any) => o.table === tables[1])).toEqual([]);
    expect(open.filter((o: any) => o.table === tables[0]).map((o: any) => o.id)).toEqual([a.id]);
  });

  it('refuses what cannot be merged, in the one error shape, writing nothing', async () => {
    const a = await ring(null, [{ menu_item: menu.water, quantity: 1 }]);
    const expectError = async (body: unknown, status: number, code: string, id = a.id) => {
      const r = await hub.api.post(`/v1/orders/${id}/merge`, body);
      expect(r.status, JSON.stringify(r.body)).toBe(status);
      expect(r.body.error.code).toBe(code);
    };
    await expectError({ from: a.id }, 400, 'parameter_invalid');
    await expectError({}, 400, 'parameter_missing');
    await expectError({ from: 'ord_nothing' }, 404, 'resource_missing');
    const takeout = (await hub.api.post('/v1/orders', { type: 'takeout', items: [{ menu_item: menu.water, quantity: 1 }], status: 'placed' })).body;
    await expectError({ from: takeout.id }, 400, 'parameter_invalid');
    const gone = await ring(null, [{ menu_item: menu.water, quantity: 1 }]);
    expect((await hub.api.post(`/v1/orders/${gone.id}/cancel`, { reason: 'left' })).status).toBe(200);
    await expectError({ from: gone.id }, 409, 'order_not_open');
    expect((await hub.api.get(`/v1/orders/${a.id}`)).body.items).toHaveLength(a.items.length);
  });
});
