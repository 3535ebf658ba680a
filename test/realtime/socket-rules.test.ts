import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { actorFor, placeOrder } from './fixtures.ts';
import { TestSocket } from './socket.ts';

describe.each(DIALECTS)('realtime socket rules on %s', (dialect) => {
  let hub: TestHub;
  const sockets: TestSocket[] = [];
  const open = async () => {
    const s = await TestSocket.open(hub.url);
    sockets.push(s);
    return s;
  };

  beforeAll(async () => {
    hub = await startHub(dialect);
  });
  afterAll(async () => {
    for (const s of sockets) s.ws.terminate();
    await hub?.close();
  });

  it('refuses a disabled QR code like an unknown token', async () => {
    const created = await hub.api.post('/v1/qr_codes', { type: 'takeout' });
    expect(created.status).toBe(201);
    const { id, token } = created.body;

    const before = await open();
    before.send({ type: 'auth', kind: 'qr', token });
    expect(await before.next()).toMatchObject({ type: 'authenticated', data: { guest: 'qr' } });

    expect((await hub.api.post(`/v1/qr_codes/${id}/disable`)).status).toBe(200);
    const after = await open();
    after.send({ type: 'auth', kind: 'qr', token });
    expect(await after.next()).toMatchObject({ type: 'error', data: { code: 'resource_missing' } });
    expect((await after.closed).code).toBe(4401);
  });

  it('replays a topic named twice in one subscribe once', async () => {
    const services = hub.server.services;
    const live = await open();
    expect(await live.auth(hub.keys.widget)).toMatchObject({ type: 'authenticated' });
    const [ack] = await live.subscribe(['orders']);
    const since: number = ack.seq;
    const placed = await placeOrder(services, actorFor(services, hub.restaurant.id), { lines: [{ station: 'kitchen' }] });
    expect(await live.next()).toMatchObject({ type: 'order', data: { id: placed.order.id } });

    const resumed = await open();
    expect(await resumed.auth(hub.keys.widget)).toMatchObject({ type: 'authenticated' });
    const got = await resumed.subscribe(['orders', 'orders'], since);
    const orders = got.filter((m) => m.type === 'order');
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ topic: 'orders', data: { id: placed.order.id } });
    expect(got.at(-1)).toMatchObject({ type: 'subscribed', data: { topics: ['orders'], replayed: 1 } });
    // and live: one message per change, not two
    await placeOrder(services, actorFor(services, hub.restaurant.id), { lines: [{ station: 'kitchen' }] });
    const next = await resumed.next();
    expect(next.type).toBe('order');
    resumed.send({ type: 'ping' });
    expect((await resumed.next()).type).toBe('pong');
  });

  it('a sandbox key cannot follow a live order (nor a live key a sandbox one)', async () => {
    const services = hub.server.services;
    const liveOrder = await placeOrder(services, actorFor(services, hub.restaurant.id, true), { lines: [{ station: 'kitchen' }] });
    const testOrder = await placeOrder(services, actorFor(services, hub.restaurant.id, false), { lines: [{ station: 'kitchen' }] });

    const sandbox = await open();
    expect(await sandbox.auth(hub.keys.sandbox)).toMatchObject({ type: 'authenticated', data: { livemode: false } });
    const [refused] = await sandbox.subscribe([`order:${liveOrder.order.id}`]);
    const [unknown] = await sandbox.subscribe(['order:ord_doesnotexist']);
    expect(refused).toMatchObject({ type: 'error', data: { code: 'resource_missing' } });
    expect(unknown).toMatchObject({ type: 'error', data: { code: 'resource_missing' } });
    expect((await sandbox.subscribe([`order:${testOrder.order.id}`]))[0].type).toBe('subscribed');

    const live = await open();
    expect(await live.auth(hub.keys.secret)).toMatchObject({ type: 'authenticated', data: { livemode: true } });
    expect((await live.subscribe([`order:${testOrder.order.id}`]))[0]).toMatchObject({ type: 'error', data: { code: 'resource_missing' } });
    expect((await live.subscribe([`order:${liveOrder.order.id}`]))[0].type).toBe('subscribed');
  });
});
