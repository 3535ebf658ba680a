import { afterEach, describe, expect, it } from 'vitest';
import { seedMenu } from '../orders/fixtures.ts';
import { EVERY_DAY_NOON_TO_ELEVEN } from '../reservations/helpers.ts';
import type { ApiClient } from '../helpers/server.ts';
import { converged, goOffline, goOnline, startPair, type Pair } from './helpers.ts';

describe('cloud sync: the same records changed on both sides while apart', () => {
  let p: Pair | undefined;
  afterEach(async () => {
    await p?.close();
    p = undefined;
  });

  it('free fields: last writer wins per field; lifecycles move forward (completed beats cancelled); the same table booked twice is kept and listed', async () => {
    const pair = (p = await startPair());
    const menu = await seedMenu(pair.hub);
    await pair.hub.api.patch('/v1/settings', { timezone: 'Europe/Berlin', opening_hours: EVERY_DAY_NOON_TO_ELEVEN });
    const order = (await pair.hub.api.post('/v1/orders', { type: 'dine_in', table: menu.table, items: [{ menu_item: menu.pasta, quantity: 1 }] })).body;
    expect((await pair.hub.api.patch(`/v1/orders/${order.id}`, { status: 'placed' })).status).toBe(200);
    await pair.link();
    await goOffline(pair.hub);

    // apart: the hub renames the pasta, then the cloud changes its price, and later renames it too
    pair.hub.clock.advance(1000);
    pair.cloud.clock.advance(1000);
    expect((await pair.hub.api.patch(`/v1/menu_items/${menu.pasta}`, { name: 'Pasta (hub)', description: 'from the hub' })).status).toBe(200);
    pair.cloud.clock.advance(1000);
    expect((await pair.cloudApi.patch(`/v1/menu_items/${menu.pasta}`, { price: 1450 })).status).toBe(200);
    pair.cloud.clock.advance(1000);
    expect((await pair.cloudApi.patch(`/v1/menu_items/${menu.pasta}`, { name: 'Pasta (cloud)' })).status).toBe(200);
    // the hub completes the order (paid at the till) while an integration cancels it on the cloud
    expect((await pair.hub.api.patch(`/v1/orders/${order.id}`, { status: 'completed' })).status).toBe(200);
    expect((await pair.cloudApi.patch(`/v1/orders/${order.id}`, { status: 'cancelled', cancel_reason: 'guest left' })).status).toBe(200);
    // the same table, the same evening, booked on both sides
    const atHub = await pair.hub.api.post('/v1/reservations', { guest_name: 'Hub guest', party_size: 2, date: '2026-11-20', time: '19:00', table: menu.table });
    const atCloud = await pair.cloudApi.post('/v1/reservations', { guest_name: 'Cloud guest', party_size: 2, date: '2026-11-20', time: '19:00', table: menu.table });
    expect([atHub.status, atCloud.status]).toEqual([201, 201]);

    goOnline(pair.hub);
    const { ok, report } = await converged(pair);
    expect(report?.differences).toEqual([]);
    expect(ok).toBe(true);

    for (const api of [pair.hub.api, pair.cloudApi]) {
      const item = (await api.get(`/v1/menu_items/${menu.pasta}`)).body;
      expect(item).toMatchObject({ name: 'Pasta (cloud)', description: 'from the hub', price: 1450 });
      const o = (await api.get(`/v1/orders/${order.id}`)).body;
      expect(o.status).toBe('completed');
      expect(o.cancelled_at ?? null).toBeNull();
      expect((await api.get(`/v1/reservations/${atHub.body.id}`)).body.status).not.toBe('cancelled');
      expect((await api.get(`/v1/reservations/${atCloud.body.id}`)).body.status).not.toBe('cancelled');
      const status = (await api.get('/v1/sync/status')).body;
      const kinds = status.conflicts.map((c: any) => c.kind).sort();
      expect(kinds).toContain('double_booking');
      const booking = status.conflicts.find((c: any) => c.kind === 'double_booking');
      expect(booking.row_ids).toEqual([atHub.body.id, atCloud.body.id].sort());
    }
    // the overruled cancel is listed where it was overruled: the cloud made it
    const cloudConflicts = (await pair.cloudApi.get('/v1/sync/status')).body.conflicts;
    expect(cloudConflicts.some((c: any) => c.kind === 'status_overruled' && c.row_ids[0] === order.id)).toBe(true);
  });

  it('rounds added to one order on both sides while apart: every line kept, and the bill is their sum on both', async () => {
    const pair = (p = await startPair());
    const menu = await seedMenu(pair.hub);
    await pair.hub.api.patch('/v1/settings', { timezone: 'Europe/Berlin', opening_hours: EVERY_DAY_NOON_TO_ELEVEN });
    const qr = (await pair.hub.api.post('/v1/qr_codes', { table: menu.table })).body;
    const guest = (api: ApiClient) => api.withKey(null);
    const first = await guest(pair.hub.api).post(`/public/qr/${qr.token}/orders`, { items: [{ menuItemId: menu.pasta, quantity: 1 }] });
    expect(first.status).toBe(201);
    await pair.link();
    await goOffline(pair.hub);

    // apart: the table orders drinks at the hub, and more pasta through the cloud's guest page
    pair.hub.clock.advance(1000);
    pair.cloud.clock.advance(1000);
    expect((await guest(pair.hub.api).post(`/public/qr/${qr.token}/orders/${first.body.id}/items`, { items: [{ menuItemId: menu.water, quantity: 2 }] })).status).toBe(201);
    pair.cloud.clock.advance(1000);
    expect((await guest(pair.cloudApi).post(`/public/qr/${qr.token}/orders/${first.body.id}/items`, { items: [{ menuItemId: menu.pasta, quantity: 3 }] })).status).toBe(201);

    goOnline(pair.hub);
    const { ok, report } = await converged(pair);
    expect(report?.differences).toEqual([]);
    expect(ok).toBe(true);
    for (const api of [pair.hub.api, pair.cloudApi]) {
      const o = (await api.get(`/v1/orders/${first.body.id}`)).body;
      expect(o.items.map((i: any) => i.quantity).sort()).toEqual([1, 2, 3]);
      const lines = o.items.reduce((sum: number, i: any) => sum + i.unit_price * i.quantity, 0);
      expect(o.subtotal).toBe(lines);
      expect(o.total).toBe(o.subtotal + o.tax_amount - o.discount_amount + o.tip_amount + (o.delivery_fee ?? 0));
    }
  });

  it('a deleted record stays deleted against an edit made apart; a deactivated item stays inactive under a later rename', async () => {
    const pair = (p = await startPair());
    const menu = await seedMenu(pair.hub);
    const flour = await pair.hub.api.post('/v1/inventory_items', { name: 'Flour', unit: 'kg', quantity: 10, unit_cost: 120, reorder_level: 2 });
    expect(flour.status, JSON.stringify(flour.body)).toBe(201);
    const stock = flour.body;
    await pair.link();
    await goOffline(pair.hub);
    pair.hub.clock.advance(1000);
    pair.cloud.clock.advance(5000);
    // the cloud edits the stock item later than the hub deletes it: the delete still wins
    const del = await pair.hub.api.delete(`/v1/inventory_items/${stock.id}`);
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    expect((await pair.cloudApi.patch(`/v1/inventory_items/${stock.id}`, { name: 'Tipo 00' })).status).toBe(200);
    // the hub renames the pasta after the cloud deactivated it: the rename lands, the item stays inactive
    expect((await pair.cloudApi.delete(`/v1/menu_items/${menu.pasta}`)).status).toBe(200);
    pair.hub.clock.advance(10_000);
    expect((await pair.hub.api.patch(`/v1/menu_items/${menu.pasta}`, { name: 'Pasta fresca' })).status).toBe(200);
    goOnline(pair.hub);
    const { ok, report } = await converged(pair);
    expect(report?.differences).toEqual([]);
    expect(ok).toBe(true);
    for (const api of [pair.hub.api, pair.cloudApi]) {
      expect((await api.get(`/v1/inventory_items/${stock.id}`)).status).toBe(404);
      expect((await api.get(`/v1/menu_items/${menu.pasta}`)).body).toMatchObject({ name: 'Pasta fresca', is_active: false });
    }
  });
});
