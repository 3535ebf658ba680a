import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import type { TestHub } from '../helpers/server.ts';
import { hubWithMenu, type Menu } from '../orders/fixtures.ts';

/** The party's size on a check: asked when a server opens a table, kept on the order, corrected later. */
describe.each(DIALECTS)('covers on a check on %s', (dialect) => {
  let hub: TestHub;
  let menu: Menu;
  hubWithMenu(dialect, (t) => ({ hub, menu } = t));

  it('is stored from POST /v1/orders, corrected by POST /v1/orders/{id}/covers, and added up when checks merge', async () => {
    const first = await hub.api.post('/v1/orders', { type: 'dine_in', table: menu.table, covers: 3, status: 'placed', items: [{ menu_item: menu.water, quantity: 1, seat: 1 }] });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.covers).toBe(3);
    expect((await hub.api.get(`/v1/orders/${first.body.id}`)).body.covers).toBe(3);

    const fixed = await hub.api.post(`/v1/orders/${first.body.id}/covers`, { covers: 4 });
    expect(fixed.status, JSON.stringify(fixed.body)).toBe(200);
    expect(fixed.body.covers).toBe(4);
    expect((await hub.api.get(`/v1/orders/${first.body.id}`)).body.covers).toBe(4);

    // an order nobody asked about has none
    const other = await hub.api.post('/v1/orders', { type: 'dine_in', table: menu.table2, status: 'placed', items: [{ menu_item: menu.water, quantity: 1 }] });
    expect(other.body.covers).toBeNull();
    const two = await hub.api.post(`/v1/orders/${other.body.id}/covers`, { covers: 2 });
    expect(two.body.covers).toBe(2);
    const merged = await hub.api.post(`/v1/orders/${first.body.id}/merge`, { from: other.body.id });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    expect(merged.body.covers).toBe(6);
  });

  it('refuses a party of 0, of 100 or of a fraction, and a closed check, writing nothing', async () => {
    const order = await hub.api.post('/v1/orders', { type: 'dine_in', table: menu.table2, covers: 2, status: 'placed', items: [{ menu_item: menu.water, quantity: 1 }] });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    for (const covers of [0, 100, 2.5, '3']) {
      const bad = await hub.api.post(`/v1/orders/${order.body.id}/covers`, { covers });
      expect(bad.status, JSON.stringify(bad.body)).toBe(400);
      expect(bad.body.error.param).toBe('covers');
    }
    const badCreate = await hub.api.post('/v1/orders', { type: 'dine_in', table: menu.table2, covers: 0, items: [{ menu_item: menu.water, quantity: 1 }] });
    expect(badCreate.status).toBe(400);
    expect((await hub.api.get(`/v1/orders/${order.body.id}`)).body.covers).toBe(2);

    expect((await hub.api.post(`/v1/orders/${order.body.id}/cancel`, { cancel_reason: 'left' })).status).toBe(200);
    const closed = await hub.api.post(`/v1/orders/${order.body.id}/covers`, { covers: 5 });
    expect(closed.status).toBe(409);
    expect(closed.body.error.code).toBe('order_not_open');
    expect((await hub.api.get(`/v1/orders/${order.body.id}`)).body.covers).toBe(2);
  });
});
