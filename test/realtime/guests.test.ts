import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryGrant } from '../../server/realtime/guest-tokens.ts';
import type { Feature } from '../../server/features/feature.ts';
import { features } from '../../server/features/index.ts';
import { insertRecord, updateRecord } from '../../server/db/records.ts';
import { newId, PREFIXES } from '../../server/ids.ts';
import { DIALECTS } from '../helpers/db.ts';
import { countRows, startHub, type TestHub } from '../helpers/server.ts';
import { actorFor, placeOrder, setItemStatus } from './fixtures.ts';
import { insertQrCode } from './qr-codes.ts';
import { TestSocket } from './socket.ts';

// A feature of this test's server: a row feed as the waitlist's, over another table
// (customers), and a token kind that follows one customer (the one the test names).
let ownCustomer: string | null = null;
const pluggable: Feature = {
  name: 'test-customers',
  realtimeFeeds: [{ table: 'customers', type: 'customer', collection: 'customers', entry: 'customer', scope: 'customers:read', present: (row) => ({ id: row.id, object: 'customer', name: row.name }) }],
  guestTokenResolvers: {
    'entry-test': async (services, token) => {
      const rst = await services.db.selectFrom('customers').select('restaurant_id').where('id', '=', ownCustomer ?? '').executeTakeFirst();
      return token === 'signed-for-own' && rst && ownCustomer ? entryGrant(rst.restaurant_id, 'customers', ownCustomer) : null;
    },
  },
};

describe.each(DIALECTS)('realtime guests on %s', (dialect) => {
  let hub: TestHub;
  const sockets: TestSocket[] = [];
  const open = async () => {
    const s = await TestSocket.open(hub.url);
    sockets.push(s);
    return s;
  };
  const actor = () => actorFor(hub.server.services, hub.restaurant.id);

  beforeAll(async () => {
    hub = await startHub(dialect, { features: [...features, pluggable] });
  });
  afterAll(async () => {
    for (const s of sockets) s.ws.terminate();
    await hub?.close();
  });

  it("a QR token follows its own table's order and cannot see another table's", async () => {
    const services = hub.server.services;
    const qrA = await insertQrCode(services, hub.restaurant.id, 'tbl_a');
    const qrB = await insertQrCode(services, hub.restaurant.id, 'tbl_b');
    const mine = await placeOrder(services, actor(), { lines: [{ station: 'kitchen' }], tableId: 'tbl_a', qrCodeId: qrA.id });
    const theirs = await placeOrder(services, actor(), { lines: [{ station: 'kitchen' }], tableId: 'tbl_b', qrCodeId: qrB.id });

    const guest = await open();
    guest.send({ type: 'auth', kind: 'qr', token: qrA.token });
    expect(await guest.next()).toMatchObject({ type: 'authenticated', data: { restaurant: hub.restaurant.id, guest: 'qr' } });
    const before = await countRows(hub, 'change_log');
    expect((await guest.subscribe([`order:${theirs.order.id}`]))[0]).toMatchObject({ type: 'error', data: { code: 'resource_missing' } });
    for (const topic of ['orders', 'station:kitchen', 'reservations', 'waitlist']) {
      expect((await guest.subscribe([topic]))[0]).toMatchObject({ type: 'error', data: { code: 'resource_missing' } });
    }
    expect(await countRows(hub, 'change_log')).toBe(before);
    const [ack] = await guest.subscribe([`order:${mine.order.id}`]);
    expect(ack.type).toBe('subscribed');

    await setItemStatus(services, actor(), theirs.order.id, 0, 'ready');
    await setItemStatus(services, actor(), mine.order.id, 0, 'ready');
    const msg = await guest.next();
    expect(msg).toMatchObject({ type: 'order', topic: `order:${mine.order.id}`, data: { id: mine.order.id } });
    expect(msg.data.items[0].status).toBe('ready');
    // nothing of the other table's order was sent before it
    expect(guest.messages.some((m) => m.data?.id === theirs.order.id)).toBe(false);
  });

  it('refuses unknown QR tokens and unknown token kinds', async () => {
    const g = await open();
    g.send({ type: 'auth', kind: 'qr', token: 'no-such-token' });
    expect(await g.next()).toMatchObject({ type: 'error', data: { code: 'resource_missing' } });
    expect((await g.closed).code).toBe(4401);
    const k = await open();
    k.send({ type: 'auth', kind: 'telepathy', token: 'x' });
    expect(await k.next()).toMatchObject({ type: 'error', data: { code: 'parameter_invalid' } });
    expect((await k.closed).code).toBe(4401);
    const both = await open();
    both.send({ type: 'auth', key: hub.keys.widget, kind: 'qr', token: 'x' });
    expect(await both.next()).toMatchObject({ type: 'error', data: { code: 'parameter_invalid' } });
  });

  it('a pluggable guest token follows its own entry of a row feed, and only that one', async () => {
    const services = hub.server.services;
    const now = Math.floor(services.clock.now() / 1000);
    const [own, other] = await services.tx.run(async (trx) => {
      const mk = (name: string) =>
        insertRecord(trx, 'customers', {
          id: newId(PREFIXES.customer),
          restaurant_id: hub.restaurant.id,
          name,
          email: null,
          phone: null,
          loyalty_points: 0,
          first_seen: now,
          created: now,
          updated: now,
        });
      return [await mk('Ada'), await mk('Bo')];
    });
    ownCustomer = own.id;
    const g = await open();
    g.send({ type: 'auth', kind: 'entry-test', token: 'signed-for-own' });
    expect((await g.next()).type).toBe('authenticated');
    expect((await g.subscribe([`customer:${other.id}`]))[0]).toMatchObject({ type: 'error', data: { code: 'resource_missing' } });
    expect((await g.subscribe(['customers']))[0]).toMatchObject({ type: 'error', data: { code: 'resource_missing' } });
    expect((await g.subscribe([`customer:${own.id}`]))[0].type).toBe('subscribed');

    const staff = await open();
    await staff.auth(hub.keys.secret);
    await staff.subscribe(['customers']);

    await services.tx.run((trx) => updateRecord(trx, 'customers', { id: other.id, restaurant_id: hub.restaurant.id }, { name: 'Bob' }));
    await services.tx.run((trx) => updateRecord(trx, 'customers', { id: own.id, restaurant_id: hub.restaurant.id }, { name: 'Ada L.' }));
    expect(await g.next()).toMatchObject({ type: 'customer', topic: `customer:${own.id}`, data: { id: own.id, name: 'Ada L.' } });
    expect(await staff.next()).toMatchObject({ type: 'customer', data: { id: other.id, name: 'Bob' } });
    expect(await staff.next()).toMatchObject({ type: 'customer', data: { id: own.id, name: 'Ada L.' } });
  });
});
