import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteRecord } from '../../server/db/records.ts';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { actorFor, addStation, placeOrder, setItemStatus } from './fixtures.ts';
import { TestSocket } from './socket.ts';

describe.each(DIALECTS)('realtime live feed on %s', (dialect) => {
  let hub: TestHub;
  const sockets: TestSocket[] = [];
  const open = async (opts?: Parameters<typeof TestSocket.open>[1]) => {
    const s = await TestSocket.open(hub.url, opts);
    sockets.push(s);
    return s;
  };
  const actor = () => actorFor(hub.server.services, hub.restaurant.id);

  beforeAll(async () => {
    hub = await startHub(dialect);
    await addStation(hub.server.services, actor(), 'grill');
  });
  afterAll(async () => {
    for (const s of sockets) s.ws.terminate();
    await hub?.close();
  });

  it('delivers an order after commit, then exactly the three changes missed while away', async () => {
    const screen = await open();
    expect((await screen.auth(hub.keys.widget)).type).toBe('authenticated');
    const [ack] = await screen.subscribe(['orders']);
    expect(ack.type).toBe('subscribed');

    const { order } = await placeOrder(hub.server.services, actor(), { lines: [{ station: 'grill' }, { station: 'bar' }, { station: 'grill' }] });
    const created = await screen.next();
    expect(created).toMatchObject({ type: 'order', topic: 'orders', data: { id: order.id, object: 'order', status: 'placed' } });
    expect(created.data.items).toHaveLength(3);
    expect(created.seq).toBeGreaterThan(ack.seq);
    await screen.close();

    // away: three changes happen
    const missed = [];
    for (const idx of [0, 1, 2]) missed.push(await setItemStatus(hub.server.services, actor(), order.id, idx, 'preparing'));

    const back = await open();
    await back.auth(hub.keys.widget);
    const replay = await back.subscribe(['orders'], created.seq);
    const messages = replay.filter((m) => m.type === 'order');
    expect(messages).toHaveLength(3);
    expect(replay.at(-1)).toMatchObject({ type: 'subscribed', data: { replayed: 3, resync: false } });
    const seqs = messages.map((m) => m.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(3);
    expect(seqs[0]).toBeGreaterThan(created.seq);
    expect(messages.every((m) => m.data.id === order.id)).toBe(true);
    expect(messages.at(-1).data.items.map((i: any) => i.status)).toEqual(['preparing', 'preparing', 'preparing']);

    // asking again for a topic already live replays nothing
    expect(await back.subscribe(['orders'], created.seq)).toEqual([expect.objectContaining({ type: 'subscribed', data: expect.objectContaining({ replayed: 0 }) })]);

    // then live, from exactly there: the next message is the next change, nothing repeated
    await setItemStatus(hub.server.services, actor(), order.id, 0, 'ready');
    const live = await back.next();
    expect(live.type).toBe('order');
    expect(live.seq).toBeGreaterThan(seqs[2]);
    expect(live.data.items[0].status).toBe('ready');
  });

  it('a station topic carries only orders with its lines, and only those lines', async () => {
    const grill = await open();
    await grill.auth(hub.keys.widget);
    await grill.subscribe(['station:grill']);
    await placeOrder(hub.server.services, actor(), { lines: [{ station: 'bar' }] });
    const mixed = await placeOrder(hub.server.services, actor(), { lines: [{ station: 'bar' }, { station: 'grill' }] });
    const msg = await grill.next();
    expect(msg.data.id).toBe(mixed.order.id);
    expect(msg.topic).toBe('station:grill');
    expect(msg.data.items).toEqual([expect.objectContaining({ index: 1, station: 'grill' })]);
  });

  it('one order topic, and several topics on one socket each get their own message', async () => {
    const { order } = await placeOrder(hub.server.services, actor(), { lines: [{ station: 'grill' }] });
    const s = await open();
    await s.auth(hub.keys.secret);
    const [ack] = await s.subscribe([`order:${order.id}`, 'station:grill']);
    expect(ack.data.topics).toEqual([`order:${order.id}`, 'station:grill']);
    await placeOrder(hub.server.services, actor(), { lines: [{ station: 'bar' }] });
    await setItemStatus(hub.server.services, actor(), order.id, 0, 'ready');
    const a = await s.next();
    const b = await s.next();
    expect([a.topic, b.topic].sort()).toEqual([`order:${order.id}`, 'station:grill']);
    expect(a.seq).toBe(b.seq);
    expect(a.data.items[0].status).toBe('ready');
  });

  it('sends nothing of a sandbox order to a live key, nor another restaurant\'s orders', async () => {
    const other = await hub.addRestaurant(`rt-other-${dialect}`);
    const s = await open();
    await s.auth(hub.keys.secret);
    await s.subscribe(['orders']);
    await placeOrder(hub.server.services, actorFor(hub.server.services, hub.restaurant.id, false), { lines: [{ station: 'bar' }] });
    await placeOrder(hub.server.services, actorFor(hub.server.services, other.restaurant.id), { lines: [{ station: 'bar' }] });
    const mine = await placeOrder(hub.server.services, actor(), { lines: [{ station: 'bar' }] });
    const msg = await s.next();
    expect(msg.data.id).toBe(mine.order.id);
    expect(msg.data.livemode).toBe(true);

    const sandbox = await open();
    await sandbox.auth(hub.keys.sandbox);
    await sandbox.subscribe(['orders']);
    const test = await placeOrder(hub.server.services, actorFor(hub.server.services, hub.restaurant.id, false), { lines: [{ station: 'bar' }] });
    expect((await sandbox.next()).data).toMatchObject({ id: test.order.id, livemode: false });

    // another restaurant's key cannot name this restaurant's order
    const foreign = await open();
    await foreign.auth(other.keys.widget);
    const [refused] = await foreign.subscribe([`order:${mine.order.id}`]);
    expect(refused).toMatchObject({ type: 'error', data: { code: 'resource_missing' } });
  });

  it('resumes with a seq past the window, or not from this log, get resync and then live messages', async () => {
    const s = await open();
    await s.auth(hub.keys.widget);
    const ahead = await s.subscribe(['orders'], 10_000_000);
    expect(ahead[0]).toMatchObject({ type: 'resync', data: { reason: 'unknown_seq' } });
    expect(ahead[1]).toMatchObject({ type: 'subscribed', data: { resync: true } });
    const { order } = await placeOrder(hub.server.services, actor(), { lines: [{ station: 'bar' }] });
    expect((await s.next()).data.id).toBe(order.id);
  });

  it('refuses a wrong key, a missing auth, and topics the key may not read', async () => {
    const wrong = await open();
    wrong.send({ type: 'auth', key: 'sk_live_notarealkey000000000000000000' });
    expect(await wrong.next()).toMatchObject({ type: 'error', data: { code: 'api_key_invalid' } });
    expect((await wrong.closed).code).toBe(4401);

    const noAuth = await open();
    noAuth.send({ type: 'subscribe', topics: ['orders'] });
    expect(await noAuth.next()).toMatchObject({ type: 'error', data: { code: 'api_key_missing' } });
    expect((await noAuth.closed).code).toBe(4401);

    // a key in the URL is not a key
    const inUrl = await open({ path: `/realtime?key=${hub.keys.secret}` });
    inUrl.send({ type: 'subscribe', topics: ['orders'] });
    expect(await inUrl.next()).toMatchObject({ type: 'error', data: { code: 'api_key_missing' } });

    const garbage = await open();
    garbage.ws.send('not json');
    expect(await garbage.next()).toMatchObject({ type: 'error', data: { code: 'invalid_json' } });
    expect((await garbage.closed).code).toBe(4401);

    const widget = await open();
    await widget.auth(hub.keys.widget);
    expect((await widget.subscribe(['reservations']))[0]).toMatchObject({ type: 'error', data: { code: 'insufficient_scope' } });
    expect((await widget.subscribe(['waitlist']))[0]).toMatchObject({ type: 'error', data: { code: 'insufficient_scope' } });
    expect((await widget.subscribe(['nonsense']))[0]).toMatchObject({ type: 'error', data: { code: 'parameter_invalid' } });
    expect((await widget.subscribe(['station:nowhere']))[0]).toMatchObject({ type: 'error', data: { code: 'unknown_station' } });
    expect((await widget.subscribe(['order:ord_missing']))[0]).toMatchObject({ type: 'error', data: { code: 'resource_missing' } });
    widget.send({ type: 'subscribe', topics: [] });
    expect(await widget.next()).toMatchObject({ type: 'error', data: { code: 'parameter_invalid' } });
    widget.send({ type: 'subscribe', topics: ['orders'], since: -1 });
    expect(await widget.next()).toMatchObject({ type: 'error', data: { code: 'parameter_invalid' } });
    // refusals keep an authenticated socket open, and subscribe nothing
    widget.send({ type: 'ping' });
    expect(await widget.next()).toMatchObject({ type: 'pong' });
    expect(hub.server.services.realtime!.hub.clients.size).toBeGreaterThan(0);
  });

  it('a secret key follows reservations and the waitlist', async () => {
    const s = await open();
    await s.auth(hub.keys.secret);
    const [ack] = await s.subscribe(['reservations', 'waitlist', 'waitlist_entry:wl_someone']);
    expect(ack).toMatchObject({ type: 'subscribed', data: { topics: ['reservations', 'waitlist', 'waitlist_entry:wl_someone'] } });
  });

  it('answers upgrades only on /realtime', async () => {
    await expect(TestSocket.open(hub.url, { path: '/v1/orders' })).rejects.toThrow();
  });

  it('takes the key as a subprotocol next to comanda.v1', async () => {
    const s = await open({ protocols: ['comanda.v1', hub.keys.widget] });
    expect(s.ws.protocol).toBe('comanda.v1');
    expect(await s.next()).toMatchObject({ type: 'authenticated', data: { restaurant: hub.restaurant.id, key_type: 'widget' } });
    const bad = await open({ protocols: ['comanda.v1', 'wk_live_wrongwrongwrongwrongwrongwrong12'] });
    expect(await bad.next()).toMatchObject({ type: 'error', data: { code: 'api_key_invalid' } });
    expect((await bad.closed).code).toBe(4401);
  });

  it('unsubscribing stops a topic; deleting an order sends order.deleted', async () => {
    const { order } = await placeOrder(hub.server.services, actor(), { lines: [{ station: 'grill' }] });
    const s = await open();
    await s.auth(hub.keys.secret);
    await s.subscribe(['orders', 'station:grill']);
    s.send({ type: 'unsubscribe', topics: ['station:grill'] });
    expect(await s.next()).toMatchObject({ type: 'unsubscribed', data: { topics: ['orders'] } });
    await hub.server.services.tx.run(async (trx) => {
      await deleteRecord(trx, 'order_items', { id: (await trx.selectFrom('order_items').select('id').where('order_id', '=', order.id).executeTakeFirstOrThrow()).id });
      await deleteRecord(trx, 'orders', { id: order.id, restaurant_id: hub.restaurant.id });
    });
    expect(await s.next()).toMatchObject({ type: 'order.deleted', topic: 'orders', data: { id: order.id, object: 'order', deleted: true } });
    const { order: next } = await placeOrder(hub.server.services, actor(), { lines: [{ station: 'grill' }] });
    const m = await s.next();
    expect(m).toMatchObject({ type: 'order', topic: 'orders', data: { id: next.id } });
  });
});
