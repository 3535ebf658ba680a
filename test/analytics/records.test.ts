import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../server/domain/keys/create-key.ts';
import { DIALECTS } from '../helpers/db.ts';
import { countRows, startHub, type TestHub } from '../helpers/server.ts';

const long = 'x'.repeat(201);

describe.each(DIALECTS)('analytics records on %s', (dialect) => {
  let hub: TestHub;
  let other: Awaited<ReturnType<TestHub['addRestaurant']>>;
  beforeAll(async () => {
    hub = await startHub(dialect);
    other = await hub.addRestaurant('other-records');
  });
  afterAll(() => hub?.close());

  /** Asserts a refusal and that the table and the change log are unchanged. */
  async function refused(table: string, call: () => Promise<{ status: number; body: any }>, status: number, code: string) {
    const rows = await countRows(hub, table);
    const log = await countRows(hub, 'change_log');
    const r = await call();
    expect(r.status, JSON.stringify(r.body)).toBe(status);
    expect(r.body.error.code).toBe(code);
    expect(await countRows(hub, table)).toBe(rows);
    expect(await countRows(hub, 'change_log')).toBe(log);
    return r;
  }

  describe('customers', () => {
    it('creates, reads, updates and lists with cursors', async () => {
      const a = await hub.api.post('/v1/customers', { name: 'Ada', email: 'ADA@example.com ', phone: '+49 30 1234567' });
      expect(a.status).toBe(201);
      expect(a.body).toMatchObject({ object: 'customer', name: 'Ada', email: 'ada@example.com', phone: '+49301234567', total_visits: 0, total_spent: 0, loyalty_points: 0 });
      expect(a.body.id).toMatch(/^cus_/);
      const b = await hub.api.post('/v1/customers', { name: 'Bea' });
      const c = await hub.api.post('/v1/customers', { phone: '030 7654321' });
      expect(c.body.phone).toBe('+49307654321');
      const upd = await hub.api.patch(`/v1/customers/${b.body.id}`, { email: 'bea@example.com' });
      expect(upd.status).toBe(200);
      expect(upd.body).toMatchObject({ name: 'Bea', email: 'bea@example.com' });
      expect((await hub.api.get(`/v1/customers/${a.body.id}`)).body.name).toBe('Ada');
      const p1 = await hub.api.get('/v1/customers?limit=2');
      expect(p1.body.data.map((x: any) => x.id)).toEqual([c.body.id, b.body.id]);
      expect(p1.body.has_more).toBe(true);
      const p2 = await hub.api.get(`/v1/customers?limit=2&starting_after=${p1.body.next_cursor}`);
      expect(p2.body.data.map((x: any) => x.id)).toEqual([a.body.id]);
      expect(p2.body.has_more).toBe(false);
      expect((await other.api.get('/v1/customers')).body.data).toEqual([]);
    });

    it('refuses bad input and writes nothing', async () => {
      await refused('customers', () => hub.api.post('/v1/customers', {}), 400, 'parameter_missing');
      await refused('customers', () => hub.api.post('/v1/customers', { name: long }), 400, 'parameter_invalid');
      await refused('customers', () => hub.api.post('/v1/customers', { name: 42 }), 400, 'parameter_invalid');
      await refused('customers', () => hub.api.post('/v1/customers', { email: 'not-an-email' }), 400, 'parameter_invalid');
      await refused('customers', () => hub.api.post('/v1/customers', { phone: 'abc' }), 400, 'parameter_invalid');
      await refused('customers', () => hub.api.post('/v1/customers', { email: 'ada@example.com' }), 409, 'resource_conflict');
      await refused('customers', () => hub.api.patch('/v1/customers/cus_nope', { name: 'X' }), 404, 'resource_missing');
      const mine = (await hub.api.get('/v1/customers?limit=1')).body.data[0].id;
      await refused('customers', () => other.api.patch(`/v1/customers/${mine}`, { name: 'X' }), 404, 'resource_missing');
      await refused('customers', () => hub.api.patch(`/v1/customers/${mine}`, { phone: null, name: null }), 400, 'parameter_invalid');
      expect((await other.api.get(`/v1/customers/${mine}`)).status).toBe(404);
      expect((await hub.api.get('/v1/customers?limit=0')).body.error.code).toBe('parameter_invalid');
      expect((await hub.api.get('/v1/customers?limit=101')).body.error.code).toBe('parameter_invalid');
      expect((await hub.api.get('/v1/customers?color=red')).body.error.code).toBe('parameter_unknown');
      expect((await hub.api.get('/v1/customers?starting_after=garbage')).body.error.code).toBe('invalid_cursor');
    });
  });

  describe('staff and shifts', () => {
    it('creates staff, clocks in and out, and the labor report adds the hours', async () => {
      const start = hub.clock.now();
      const s = await hub.api.post('/v1/staff', { name: 'Marco', email: 'marco@example.com', role: 'server', hourly_rate: 1500 });
      expect(s.status).toBe(201);
      expect(s.body).toMatchObject({ object: 'staff_user', name: 'Marco', role: 'server', hourly_rate: 1500, is_active: true });
      expect(s.body.id).toMatch(/^usr_/);
      const t = await hub.api.post('/v1/staff', { name: 'Giulia', email: 'giulia@example.com' });
      expect(t.body.role).toBe('staff');
      const in1 = await hub.api.post('/v1/shifts', { user: s.body.id });
      expect(in1.status).toBe(201);
      expect(in1.body).toMatchObject({ object: 'shift', user: s.body.id, clock_out: null, hours: null });
      await refused('shifts', () => hub.api.post('/v1/shifts', { user: s.body.id }), 409, 'state_conflict');
      const in2 = await hub.api.post('/v1/shifts', { user: t.body.id });
      hub.clock.advance(4.5 * 3600_000);
      const out1 = await hub.api.post(`/v1/shifts/${in1.body.id}/clock_out`);
      expect(out1.status).toBe(200);
      expect(out1.body.hours).toBe(4.5);
      await refused('shifts', () => hub.api.post(`/v1/shifts/${in1.body.id}/clock_out`), 409, 'state_conflict');
      const in3 = await hub.api.post('/v1/shifts', { user: s.body.id });
      hub.clock.advance(3600_000 + 20_000);
      await hub.api.post(`/v1/shifts/${in3.body.id}/clock_out`);
      // Giulia's shift is still open: it counts up to now
      const labor = await hub.api.get('/v1/analytics/labor');
      const secs = (ms: number) => Math.floor(ms / 1000);
      const giulia = secs(hub.clock.now()) - in2.body.clock_in;
      const marco = 4.5 * 3600 + (secs(hub.clock.now()) - in3.body.clock_in);
      expect(labor.body).toEqual({
        object: 'analytics.labor',
        data: [
          { user: s.body.id, user_name: 'Marco', total_hours: Math.round((marco * 100) / 3600) / 100, shifts: 2 },
          { user: t.body.id, user_name: 'Giulia', total_hours: Math.round((giulia * 100) / 3600) / 100, shifts: 1 },
        ],
      });
      expect(secs(start)).toBeLessThanOrEqual(in1.body.clock_in);
      // an order's server expands to the staff user, without pay (orders:read must not show wages)
      const orders = [{ object: 'order', server: s.body.id }];
      const { expandables } = hub.server.services.registry;
      expect(expandables.validate('order', ['server'])).toEqual(['server']);
      await expandables.apply({ db: hub.server.services.db, restaurantId: hub.restaurant.id }, 'order', orders, ['server']);
      expect(orders[0].server).toMatchObject({ id: s.body.id, object: 'staff_user', name: 'Marco' });
      expect(orders[0].server).not.toHaveProperty('hourly_rate');
      const expanded = await hub.api.get(`/v1/shifts/${in1.body.id}?expand[]=user`);
      expect(expanded.body.user).toMatchObject({ id: s.body.id, object: 'staff_user' });
      const open = await hub.api.get('/v1/shifts?open=true');
      expect(open.body.data.map((x: any) => x.id)).toEqual([in2.body.id]);
      const list = await hub.api.get(`/v1/staff?limit=10`);
      expect(list.body.data.map((x: any) => x.name)).toEqual(['Giulia', 'Marco', 'Owner']);
      const off = await hub.api.delete(`/v1/staff/${t.body.id}`);
      expect(off.body.is_active).toBe(false);
      await hub.api.post(`/v1/shifts/${in2.body.id}/clock_out`);
      await refused('shifts', () => hub.api.post('/v1/shifts', { user: t.body.id }), 409, 'state_conflict');
      expect((await hub.api.get('/v1/staff?is_active=true')).body.data.map((x: any) => x.name)).toEqual(['Marco', 'Owner']);
      expect((await hub.api.patch(`/v1/staff/${s.body.id}`, { hourly_rate: null })).body.hourly_rate).toBe(null);
    });

    it('refuses bad staff and shift input and writes nothing', async () => {
      // an email is optional (PIN-only staff), a name is not, and the owner keeps an email
      await refused('users', () => hub.api.post('/v1/staff', { email: 'no.name@example.com' }), 400, 'parameter_missing');
      await refused('users', () => hub.api.post('/v1/staff', { name: 'No email', role: 'owner' }), 400, 'parameter_missing');
      await refused('users', () => hub.api.post('/v1/staff', { name: long, email: 'a@b.co' }), 400, 'parameter_invalid');
      await refused('users', () => hub.api.post('/v1/staff', { name: 'R', email: 'r@b.co', role: 'pilot' }), 400, 'parameter_invalid');
      await refused('users', () => hub.api.post('/v1/staff', { name: 'R', email: 'r@b.co', hourly_rate: -1 }), 400, 'parameter_invalid');
      await refused('users', () => hub.api.post('/v1/staff', { name: 'R', email: 'MARCO@example.com' }), 409, 'resource_conflict');
      await refused('users', () => hub.api.patch('/v1/staff/usr_nope', { name: 'X' }), 404, 'resource_missing');
      const owner = (await other.api.get('/v1/staff')).body.data[0].id;
      await refused('users', () => hub.api.patch(`/v1/staff/${owner}`, { name: 'X' }), 404, 'resource_missing');
      await refused('users', () => hub.api.delete(`/v1/staff/${owner}`), 404, 'resource_missing');
      await refused('shifts', () => hub.api.post('/v1/shifts', {}), 400, 'parameter_missing');
      await refused('shifts', () => hub.api.post('/v1/shifts', { user: 7 }), 400, 'parameter_invalid');
      await refused('shifts', () => hub.api.post('/v1/shifts', { user: 'usr_nope' }), 404, 'resource_missing');
      await refused('shifts', () => hub.api.post('/v1/shifts', { user: owner }), 404, 'resource_missing');
      await refused('shifts', () => hub.api.post('/v1/shifts/shf_nope/clock_out'), 404, 'resource_missing');
      const mine = (await hub.api.get('/v1/shifts?limit=1')).body.data[0].id;
      await refused('shifts', () => other.api.post(`/v1/shifts/${mine}/clock_out`), 404, 'resource_missing');
      expect((await hub.api.get('/v1/shifts?open=maybe')).body.error.code).toBe('parameter_invalid');
      expect((await hub.api.get('/v1/staff?x=1')).body.error.code).toBe('parameter_unknown');
      expect((await hub.api.get('/v1/shifts?expand[]=boss')).body.error.code).toBe('parameter_invalid');
    });
  });

  describe('inventory', () => {
    it('keeps items and the inventory report values them exactly', async () => {
      const items = [
        { name: 'Flour', unit: 'kg', quantity: 12.5, unit_cost: 89, reorder_level: 20 },
        { name: 'Olive oil', unit: 'l', quantity: 3.333, unit_cost: 1299, reorder_level: 5 },
        { name: 'Tomatoes', unit: 'kg', quantity: 40, unit_cost: 245, reorder_level: 10 },
        { name: 'Basil', unit: 'bunch', quantity: 4, unit_cost: 99, reorder_level: 4 },
      ];
      const ids: string[] = [];
      for (const i of items) {
        const r = await hub.api.post('/v1/inventory_items', i);
        expect(r.status).toBe(201);
        expect(r.body).toMatchObject({ object: 'inventory_item', ...i, low_stock: i.quantity <= i.reorder_level });
        ids.push(r.body.id);
      }
      const upd = await hub.api.patch(`/v1/inventory_items/${ids[2]}`, { quantity: 9.75 });
      expect(upd.body.quantity).toBe(9.75);
      items[2].quantity = 9.75;
      const report = await hub.api.get('/v1/analytics/inventory');
      // Σ quantity × unit cost in thousandths of a cent, rounded once
      const milliCents = items.reduce((n, i) => n + Math.round(i.quantity * 1000) * i.unit_cost, 0);
      const low = items.filter((i) => i.quantity <= i.reorder_level).sort((a, b) => a.name.localeCompare(b.name));
      expect(report.body).toEqual({
        object: 'analytics.inventory',
        low_stock_items: low.map((i) => ({
          id: ids[items.indexOf(i)],
          name: i.name,
          sku: null,
          unit: i.unit,
          quantity: i.quantity,
          reorder_level: i.reorder_level,
          unit_cost: i.unit_cost,
        })),
        total_value: Math.round(milliCents / 1000),
        item_count: 4,
      });
      expect(report.body.low_stock_items.map((i: any) => i.name)).toEqual(['Basil', 'Flour', 'Olive oil', 'Tomatoes']);
      const del = await hub.api.delete(`/v1/inventory_items/${ids[3]}`);
      expect(del.body).toEqual({ id: ids[3], object: 'inventory_item', deleted: true });
      expect((await hub.api.get(`/v1/inventory_items/${ids[3]}`)).status).toBe(404);
      expect((await hub.api.get('/v1/analytics/inventory')).body.item_count).toBe(3);
      const page = await hub.api.get('/v1/inventory_items?limit=2');
      expect(page.body.data.map((x: any) => x.id)).toEqual([ids[2], ids[1]]);
    });

    it('refuses bad inventory input and writes nothing', async () => {
      const t = 'inventory_items';
      await refused(t, () => hub.api.post('/v1/inventory_items', { name: 'Salt', unit: 'kg', unit_cost: 10 }), 400, 'parameter_missing');
      await refused(t, () => hub.api.post('/v1/inventory_items', { name: 'Salt', unit: 'kg', quantity: -1, unit_cost: 10 }), 400, 'parameter_invalid');
      await refused(t, () => hub.api.post('/v1/inventory_items', { name: 'Salt', unit: 'kg', quantity: 1.0001, unit_cost: 10 }), 400, 'parameter_invalid');
      await refused(t, () => hub.api.post('/v1/inventory_items', { name: 'Salt', unit: 'kg', quantity: '3', unit_cost: 10 }), 400, 'parameter_invalid');
      await refused(t, () => hub.api.post('/v1/inventory_items', { name: 'Salt', unit: 'kg', quantity: 1, unit_cost: 1.5 }), 400, 'parameter_invalid');
      await refused(t, () => hub.api.post('/v1/inventory_items', { name: long, unit: 'kg', quantity: 1, unit_cost: 1 }), 400, 'parameter_invalid');
      await refused(t, () => hub.api.post('/v1/inventory_items', { name: 'Salt', unit: 'x'.repeat(21), quantity: 1, unit_cost: 1 }), 400, 'parameter_invalid');
      await refused(t, () => hub.api.patch('/v1/inventory_items/inv_nope', { quantity: 1 }), 404, 'resource_missing');
      const mine = (await hub.api.get('/v1/inventory_items?limit=1')).body.data[0].id;
      await refused(t, () => other.api.patch(`/v1/inventory_items/${mine}`, { quantity: 1 }), 404, 'resource_missing');
      await refused(t, () => other.api.delete(`/v1/inventory_items/${mine}`), 404, 'resource_missing');
      expect((await other.api.get('/v1/analytics/inventory')).body).toEqual({ object: 'analytics.inventory', low_stock_items: [], total_value: 0, item_count: 0 });
    });
  });

  describe('report parameters', () => {
    it('refuses bad ranges and parameters', async () => {
      const bad = async (path: string, code: string, param?: string) => {
        const r = await hub.api.get(path);
        expect(r.status, path).toBe(400);
        expect(r.body.error.code).toBe(code);
        if (param) expect(r.body.error.param).toBe(param);
      };
      await bad('/v1/analytics/revenue?start_date=2026-10-10&end_date=2026-10-09', 'parameter_invalid', 'end_date');
      await bad('/v1/analytics/menu_abc?start_date=2026-02-30', 'parameter_invalid', 'start_date');
      await bad('/v1/analytics/orders?start_date=10/10/2026', 'parameter_invalid', 'start_date');
      await bad('/v1/analytics/revenue?group_by=year', 'parameter_invalid', 'group_by');
      await bad('/v1/analytics/revenue?start_date=2000-01-01&end_date=2026-01-01', 'parameter_invalid', 'end_date');
      await bad('/v1/analytics/sales_forecast?days=0', 'parameter_invalid', 'days');
      await bad('/v1/analytics/sales_forecast?days=31', 'parameter_invalid', 'days');
      await bad('/v1/analytics/sales_forecast?days=1.5', 'parameter_invalid', 'days');
      await bad('/v1/analytics/dashboard?start_date=2026-01-01', 'parameter_unknown');
      await bad('/v1/analytics/inventory?x=1', 'parameter_unknown');
      await bad('/v1/analytics/customers?group_by=day', 'parameter_unknown');
      const one = await hub.api.get('/v1/analytics/revenue?start_date=2026-10-10&end_date=2026-10-10');
      expect(one.body.data.map((d: any) => d.period)).toEqual(['2026-10-10']);
      // the end of the calendar: these ranges once kept the server counting days forever
      for (const path of ['/v1/analytics/orders?start_date=9999-12-31&end_date=9999-12-31', '/v1/analytics/revenue?start_date=9999-12-01&end_date=9999-12-31']) {
        await bad(path, 'parameter_invalid', 'start_date');
      }
      await bad('/v1/analytics/revenue?start_date=9998-12-20', 'parameter_invalid', 'start_date');
      const last = await hub.api.get('/v1/analytics/revenue?start_date=9998-12-30&end_date=9998-12-31');
      expect(last.body.data.map((d: any) => d.period)).toEqual(['9998-12-30', '9998-12-31']);
      expect((await hub.api.get('/v1/analytics/dashboard')).status).toBe(200);
    });

    it('needs analytics:read and a key', async () => {
      const limited = await hub.server.services.tx.run((trx) =>
        createApiKey(trx, hub.clock.now(), { restaurantId: hub.restaurant.id, kind: 'secret', livemode: true, scopes: ['orders:read'], grantedBy: 'operator' }),
      );
      const r = await hub.api.withKey(limited.key).get('/v1/analytics/dashboard');
      expect(r.status).toBe(403);
      expect(r.body.error.code).toBe('insufficient_scope');
      expect((await hub.api.withKey(null).get('/v1/analytics/revenue')).status).toBe(401);
      expect((await hub.api.withKey(limited.key).get('/v1/customers')).status).toBe(403);
      expect((await hub.api.withKey(limited.key).get('/v1/staff')).status).toBe(403);
      expect((await hub.api.withKey(limited.key).get('/v1/inventory_items')).status).toBe(403);
    });
  });
});
