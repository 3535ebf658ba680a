import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateRecord } from '../../server/db/records.ts';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { actorFor, placeOrder, setItemStatus } from '../realtime/fixtures.ts';
import { insertQrCode } from '../realtime/qr-codes.ts';
import { TestSocket } from '../realtime/socket.ts';

describe.each(DIALECTS)('a QR token’s socket follows the guest route’s rules (%s)', (dialect) => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub(dialect);
  });
  afterAll(() => hub?.close());

  it('only live orders opened from a QR code of its table, shown as GET /public/qr/<token>/orders/<id> shows them', async () => {
    const services = hub.server.services;
    const table = (await hub.api.post('/v1/tables', { number: 41, capacity: 4 })).body;
    expect(table.id).toBeTruthy();
    const qr = await insertQrCode(services, hub.restaurant.id, table.id);
    const live = () => actorFor(services, hub.restaurant.id);
    // a staff order at the table, not from a QR code; a sandbox order from this code; the guest's own
    const staffOrder = await placeOrder(services, live(), { lines: [{ station: 'kitchen' }], tableId: table.id });
    const sandbox = await placeOrder(services, actorFor(services, hub.restaurant.id, false), { lines: [{ station: 'kitchen' }], tableId: table.id, qrCodeId: qr.id });
    const mine = await placeOrder(services, live(), { lines: [{ station: 'kitchen' }], tableId: table.id, qrCodeId: qr.id });
    // the order carries contact details the guest page never shows
    await services.tx.run((trx) => updateRecord(trx, 'orders', { id: mine.order.id, restaurant_id: hub.restaurant.id }, { notes: 'call 555-0100' }));

    const guest = await TestSocket.open(hub.url);
    guest.send({ type: 'auth', kind: 'qr', token: qr.token });
    expect((await guest.next()).type).toBe('authenticated');
    for (const other of [staffOrder, sandbox]) {
      expect((await guest.subscribe([`order:${other.order.id}`]))[0]).toMatchObject({ type: 'error', data: { code: 'resource_missing' } });
    }
    expect((await guest.subscribe([`order:${mine.order.id}`]))[0].type).toBe('subscribed');
    await setItemStatus(services, live(), mine.order.id, 0, 'ready');
    const msg = await guest.next();
    expect(msg).toMatchObject({ type: 'order', data: { id: mine.order.id } });
    const page = await hub.api.withKey(null).get(`/public/qr/${qr.token}/orders/${mine.order.id}`);
    expect(page.status).toBe(200);
    expect(msg.data).toEqual(page.body);
    expect(Object.keys(msg.data).sort()).toEqual(Object.keys(page.body).sort());
    expect(msg.data).not.toHaveProperty('customer');
    guest.ws.close();
  });
});
