import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { seedMenu, type Menu } from '../orders/fixtures.ts';
import { TestSocket } from './socket.ts';

/**
 * A dish 86'd reaches the open guest menus through /realtime (the `menu` topic): a QR token
 * follows it and is told which dish and whether it can be ordered, nothing of the staff's
 * view (cost, SKU); staff keys get the item as the API shows it. A guest who still orders it
 * is told the dish by name, never its id.
 */
describe.each(DIALECTS)('the menu on the live feed on %s', (dialect) => {
  let hub: TestHub;
  let menu: Menu;
  let token = '';
  const sockets: TestSocket[] = [];
  const open = async () => {
    const s = await TestSocket.open(hub.url);
    sockets.push(s);
    return s;
  };

  beforeAll(async () => {
    hub = await startHub(dialect);
    menu = await seedMenu(hub);
    token = (await hub.api.post('/v1/qr_codes', { table: menu.table })).body.token;
  });
  afterAll(async () => {
    for (const s of sockets) s.ws.terminate();
    await hub?.close();
  });

  it('a QR token follows the menu and hears a dish 86’d and back, with its id and availability only', async () => {
    expect((await hub.api.patch(`/v1/menu_items/${menu.pasta}`, { cost: 310, sku: 'CARB-1' })).status).toBe(200);
    const guest = await open();
    guest.send({ type: 'auth', kind: 'qr', token });
    expect(await guest.next()).toMatchObject({ type: 'authenticated' });
    expect((await guest.subscribe(['menu']))[0].type).toBe('subscribed');
    const staff = await open();
    await staff.auth(hub.keys.secret);
    expect((await staff.subscribe(['menu']))[0].type).toBe('subscribed');

    expect((await hub.api.patch(`/v1/menu_items/${menu.pasta}`, { is_available: false })).status).toBe(200);
    const told = await guest.next();
    expect(told).toEqual({ type: 'menu_item', topic: 'menu', seq: expect.any(Number), data: { id: menu.pasta, object: 'menu_item', is_available: false } });
    const staffTold = await staff.next();
    expect(staffTold).toMatchObject({ type: 'menu_item', data: { id: menu.pasta, name: 'Carbonara', is_available: false, cost: 310, sku: 'CARB-1' } });

    expect((await hub.api.patch(`/v1/menu_items/${menu.pasta}`, { is_available: true })).status).toBe(200);
    expect((await guest.next()).data).toEqual({ id: menu.pasta, object: 'menu_item', is_available: true });
    // taken off the menu altogether: not orderable either
    expect((await hub.api.patch(`/v1/menu_items/${menu.water}`, { is_active: false })).status).toBe(200);
    expect((await guest.next()).data).toEqual({ id: menu.water, object: 'menu_item', is_available: false });
  });

  it('a waitlist token may not follow the menu, nor a key without menu:read', async () => {
    const screen = await open();
    await screen.auth(hub.keys.widget);
    expect((await screen.subscribe(['menu']))[0]).toMatchObject({ type: 'error' });
    const nobody = await open();
    nobody.send({ type: 'auth', kind: 'waitlist', token: 'wle_nothing.bad' });
    expect((await nobody.next()).type).toBe('error');
  });

  it('a guest who still orders an 86’d dish is told its name, never its id', async () => {
    expect((await hub.api.patch(`/v1/menu_items/${menu.steak}`, { name: 'Grilled octopus', modifier_groups: [], is_available: false })).status).toBe(200);
    const refused = await hub.api.post(`/public/qr/${token}/orders`, { items: [{ menuItemId: menu.steak, quantity: 1 }] }, { key: null, headers: { 'idempotency-key': 'octopus-1' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'menu_item_unavailable', message: 'Grilled octopus is no longer available.' });
    expect(refused.body.error.param).toMatch(/^items\[0\]/);
    expect(JSON.stringify(refused.body)).not.toMatch(/\bmi_/);
    // and through the staff API the same words (the line is in `param`)
    const staffRefused = await hub.api.post('/v1/orders', { type: 'takeout', items: [{ menu_item: menu.water, quantity: 1 }] });
    expect(staffRefused.body.error).toMatchObject({ code: 'menu_item_unavailable', message: 'Water is no longer on the menu.' });
  });
});
