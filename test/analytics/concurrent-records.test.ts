import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import type { TestHub } from '../helpers/server.ts';
import { hubWithMenu, type Menu } from '../orders/fixtures.ts';

describe.each(DIALECTS)('customers and shifts stay unique on %s', (dialect) => {
  let hub: TestHub;
  let menu: Menu;
  hubWithMenu(dialect, (t) => ({ hub, menu } = t));
  const db = () => hub.server.services.db;

  it("an order's email and phone of two different customers: the matched one does not take the other's phone", async () => {
    const a = await hub.api.post('/v1/customers', { email: 'anna@example.com' });
    const b = await hub.api.post('/v1/customers', { phone: '+49 30 1234567' });
    expect((await hub.api.post('/v1/orders', { type: 'takeout', customer_email: 'anna@example.com', customer_phone: '+49301234567', items: [{ menu_item: menu.water, quantity: 1 }] })).status).toBe(201);
    expect((await hub.api.get(`/v1/customers/${a.body.id}`)).body.phone).toBeNull();
    expect((await db().selectFrom('customers').select('id').where('phone', '=', '+49301234567').execute()).map((r) => r.id)).toEqual([b.body.id]);
    // and B can still be saved with its own phone
    expect((await hub.api.patch(`/v1/customers/${b.body.id}`, { phone: '+49 30 1234567' })).status).toBe(200);
  });

  it('many requests at once for one new guest make one customer; one user clocks in once', async () => {
    const created = await Promise.all(Array.from({ length: 8 }, () => hub.api.post('/v1/customers', { email: 'race@example.com' })));
    expect(created.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    const orders = await Promise.all(
      Array.from({ length: 8 }, () => hub.api.post('/v1/orders', { type: 'takeout', customer_email: 'new-guest@example.com', items: [{ menu_item: menu.water, quantity: 1 }] })),
    );
    expect(orders.every((r) => r.status === 201)).toBe(true);
    expect(await db().selectFrom('customers').select('id').where('email', '=', 'new-guest@example.com').execute()).toHaveLength(1);
    const user = (await hub.api.post('/v1/staff', { name: 'Sam', email: `sam-${dialect}@example.com` })).body.id;
    const shifts = await Promise.all(Array.from({ length: 8 }, () => hub.api.post('/v1/shifts', { user })));
    expect(shifts.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    expect(await db().selectFrom('shifts').select('id').where('user_id', '=', user).where('clock_out', 'is', null).execute()).toHaveLength(1);
  });
});
