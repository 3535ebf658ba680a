import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type ApiClient, type TestHub } from '../helpers/server.ts';
import { seedMenu, type Menu } from '../orders/fixtures.ts';
import { TestSocket } from '../realtime/socket.ts';

/**
 * A paired screen's key does its screen's work only: a grill tablet picked up off the wall
 * cannot place, cancel or read guests' contact details, nor another station's tickets.
 */
describe.each(DIALECTS)('a paired screen’s key is bound to what it was paired for (%s)', (dialect) => {
  let hub: TestHub;
  let menu: Menu;
  let grill: ApiClient;
  let grillKey: string;
  let expo: ApiClient;
  let expoKey: string;
  let order: any;

  const pair = async (name: string, station?: string) => {
    const made = await hub.api.post('/v1/devices/pairing_codes', { name, ...(station && { station }) });
    expect(made.status).toBe(201);
    const paired = await hub.api.withKey(null).post('/public/devices/pair', { code: made.body.code });
    expect(paired.status).toBe(201);
    return paired.body.key as string;
  };

  beforeAll(async () => {
    hub = await startHub(dialect);
    menu = await seedMenu(hub);
    grillKey = await pair('Grill tablet', 'grill');
    expoKey = await pair('Pass');
    grill = hub.api.withKey(grillKey);
    expo = hub.api.withKey(expoKey);
    const placed = await hub.api.withKey(hub.keys.widget).post('/public/orders', {
      type: 'delivery',
      customerName: 'Grace',
      customerPhone: '+49 30 555 0100',
      customerEmail: 'grace@example.com',
      deliveryAddress: 'Hauptstr. 1',
      items: [
        { menuItemId: menu.steak, quantity: 1, modifiers: ['Rare'] },
        { menuItemId: menu.water, quantity: 1 },
      ],
    });
    expect(placed.status).toBe(201);
    order = placed.body;
  });
  afterAll(() => hub?.close());

  it('a station’s screen reads and bumps its own station’s lines, nothing else', async () => {
    const own = await grill.get('/public/orders/kitchen');
    expect(own.status).toBe(200);
    expect(own.body.data).toHaveLength(1);
    // its own station whether it asks or not; the bar line is not on it
    expect(own.body.data[0].items.map((l: any) => l.name)).toEqual(['Steak']);
    expect((await grill.get('/public/orders/kitchen?station=grill')).status).toBe(200);
    const other = await grill.get('/public/orders/kitchen?station=bar');
    expect(other.status).toBe(403);
    expect(other.body.error).toMatchObject({ code: 'insufficient_scope', param: 'station' });

    const steak = order.items.findIndex((l: any) => l.name === 'Steak');
    const water = order.items.findIndex((l: any) => l.name === 'Water');
    expect((await grill.patch(`/public/orders/${order.id}/items/${steak}/status`, { status: 'preparing' })).status).toBe(200);
    const bar = await grill.patch(`/public/orders/${order.id}/items/${water}/status`, { status: 'ready' });
    expect(bar.status).toBe(409);
    const asBar = await grill.patch(`/public/orders/${order.id}/items/${water}/status`, { status: 'ready', station: 'bar' });
    expect(asBar.status).toBe(403);

    // the till's and the integrator's work is refused, and the order is as it was
    for (const [method, path, body] of [
      ['get', '/public/orders', undefined],
      ['get', `/public/orders/${order.id}`, undefined],
      ['get', '/public/orders/active', undefined],
      ['get', '/public/orders/delivery/active', undefined],
      ['post', '/public/orders', { type: 'takeaway', items: [{ menuItemId: menu.pasta, quantity: 1 }] }],
      ['patch', `/public/orders/${order.id}/status`, { status: 'cancelled', cancelReason: 'prank' }],
    ] as const) {
      const r = await (grill as any)[method](path, body);
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(r.body.error.code).toBe('insufficient_scope');
    }
    const stored = await hub.api.get(`/v1/orders/${order.id}`);
    expect(stored.body.status).not.toBe('cancelled');
  });

  it('an expo screen sees every station and moves orders along the pass, but never cancels or completes', async () => {
    const active = await expo.get('/public/orders/active?fields=id,status,customerName,items');
    expect(active.status).toBe(200);
    expect(active.body.data[0].items).toHaveLength(2);
    expect((await expo.get('/public/orders/kitchen?station=bar')).status).toBe(200);
    for (const status of ['cancelled', 'completed']) {
      const r = await expo.patch(`/public/orders/${order.id}/status`, { status, cancelReason: 'x' });
      expect(r.status).toBe(403);
      expect(r.body.error).toMatchObject({ code: 'insufficient_scope', param: 'status' });
    }
    expect((await expo.post('/public/orders', { type: 'takeaway', items: [{ menuItemId: menu.pasta, quantity: 1 }] })).status).toBe(403);
    const served = await expo.patch(`/public/orders/${order.id}/status`, { status: 'served' });
    expect(served.status).toBe(200);
    expect(served.body.status).toBe('served');
  });

  it('neither reads a guest’s phone, email or address, by HTTP or live', async () => {
    for (const field of ['customerPhone', 'customerEmail', 'deliveryAddress', 'customer']) {
      const r = await expo.get(`/public/orders/active?fields=id,${field}`);
      expect(r.status, field).toBe(403);
      expect(r.body.error).toMatchObject({ code: 'insufficient_scope', param: 'fields' });
    }
    const answer = await expo.patch(`/public/orders/${order.id}/status`, { status: 'served' });
    expect(JSON.stringify(answer.body)).not.toMatch(/555 0100|grace@example|Hauptstr/);
    // a website's widget key still reads them (it placed the order)
    const widget = await hub.api.withKey(hub.keys.widget).get(`/public/orders/${order.id}?fields=id,customerPhone`);
    expect(widget.body.customerPhone).toBe('+49 30 555 0100');

    const socket = await TestSocket.open(hub.url);
    socket.send({ type: 'auth', key: expoKey });
    expect((await socket.next()).type).toBe('authenticated');
    expect((await socket.subscribe(['reservations']))[0]).toMatchObject({ type: 'error' });
    expect((await socket.subscribe(['orders']))[0].type).toBe('subscribed');
    const another = await hub.api.withKey(hub.keys.widget).post('/public/orders', {
      type: 'delivery',
      customerName: 'Grace',
      customerPhone: '+49 30 555 0100',
      customerEmail: 'grace@example.com',
      deliveryAddress: 'Hauptstr. 1',
      items: [{ menuItemId: menu.water, quantity: 2 }],
    });
    expect(another.status).toBe(201);
    const msg = await socket.next();
    expect(msg).toMatchObject({ type: 'order', data: { id: another.body.id } });
    expect(JSON.stringify(msg.data)).not.toMatch(/555 0100|grace@example|Hauptstr/);
    expect(msg.data.customer.name).toBe('Grace');
    socket.ws.close();

    const tablet = await TestSocket.open(hub.url);
    tablet.send({ type: 'auth', key: grillKey });
    expect((await tablet.next()).type).toBe('authenticated');
    for (const topic of ['orders', 'station:bar', `order:${order.id}`]) {
      expect((await tablet.subscribe([topic]))[0], topic).toMatchObject({ type: 'error', data: { code: 'insufficient_scope' } });
    }
    expect((await tablet.subscribe(['station:grill']))[0].type).toBe('subscribed');
    tablet.ws.close();
  });

  it('neither a website’s widget key nor a kitchen or expo screen is a service tablet: no staff list, no PIN sign-in', async () => {
    const web = await hub.api.withKey(hub.keys.widget).get('/v1/auth/pin_staff');
    expect(web.status).toBe(401);
    expect((await grill.get('/v1/auth/pin_staff')).status).toBe(403);
    expect((await expo.get('/v1/auth/pin_staff')).status).toBe(403);
  });
});
