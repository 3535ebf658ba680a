import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import type { TestHub } from '../helpers/server.ts';
import { hubWithMenu, type Menu } from '../orders/fixtures.ts';

describe.each(DIALECTS)('order lines with seat and course on %s', (dialect) => {
  let hub: TestHub;
  let menu: Menu;
  hubWithMenu(dialect, (t) => ({ hub, menu } = t));

  it('keeps each line\'s seat and course from POST /v1/orders and from a later round', async () => {
    const created = await hub.api.post('/v1/orders', {
      type: 'dine_in',
      table: menu.table,
      items: [
        { menu_item: menu.steak, quantity: 1, modifiers: ['Rare'], seat: 1, course: 2 },
        { menu_item: menu.pasta, quantity: 1, seat: 2, course: 1 },
        { menu_item: menu.water, quantity: 2 },
      ],
    });
    expect(created.status).toBe(201);
    expect(created.body.items.map((i: any) => [i.name, i.seat, i.course])).toEqual([
      ['Steak', 1, 2],
      ['Carbonara', 2, 1],
      ['Water', null, null],
    ]);
    const placed = await hub.api.patch(`/v1/orders/${created.body.id}`, { status: 'placed' });
    expect(placed.status).toBe(200);

    const round = await hub.api.post(`/v1/orders/${created.body.id}/items`, { items: [{ menu_item: menu.water, quantity: 1, seat: 3, course: 1 }] });
    expect(round.status).toBe(201);
    expect(round.body.items).toHaveLength(4);
    expect(round.body.items[3]).toMatchObject({ index: 3, name: 'Water', seat: 3, course: 1, round: 2 });
    expect(round.body.items[3].sent_to_kitchen_at).not.toBeNull();
    expect(round.body.total).toBe(round.body.subtotal + round.body.tax_amount);

    // read back: the stored lines, not the echo of the request
    const read = await hub.api.get(`/v1/orders/${created.body.id}`);
    expect(read.body.items.map((i: any) => [i.seat, i.course])).toEqual([[1, 2], [2, 1], [null, null], [3, 1]]);
  });

  it('refuses a seat or course that is not a whole number from 1, and stores nothing', async () => {
    const before = (await hub.api.get('/v1/orders?limit=100')).body.data.length;
    for (const bad of [{ seat: 0 }, { course: -1 }, { seat: 1.5 }, { course: '2' }, { seat: 100 }]) {
      const res = await hub.api.post('/v1/orders', { type: 'dine_in', items: [{ menu_item: menu.water, quantity: 1, ...bad }] });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.error.param).toMatch(/^items\[0\]\.(seat|course)$/);
    }
    expect((await hub.api.get('/v1/orders?limit=100')).body.data.length).toBe(before);
  });

  it('adds a round only to an open order of the key\'s restaurant', async () => {
    const draft = await hub.api.post('/v1/orders', { type: 'takeout', items: [{ menu_item: menu.water, quantity: 1 }] });
    const res = await hub.api.post(`/v1/orders/${draft.body.id}/items`, { items: [{ menu_item: menu.water, quantity: 1 }] });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('order_not_open');
    const missing = await hub.api.post('/v1/orders/ord_missing/items', { items: [{ menu_item: menu.water, quantity: 1 }] });
    expect(missing.status).toBe(404);
  });
});
