import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteRecord } from '../../server/db/records.ts';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { openWaitlist } from '../guest/helpers.ts';
import { actorFor, placeOrder } from './fixtures.ts';
import { TestSocket } from './socket.ts';

/**
 * The realtime feed is outside the route registry the sandbox-policy test walks, so it is
 * walked here: on every topic a key may follow, a live key hears nothing of sandbox rows and a
 * sandbox (sk_test_) key nothing of live ones, deletes included.
 */
describe.each(DIALECTS)('realtime feeds keep live and sandbox apart on %s', (dialect) => {
  let hub: TestHub;
  const sockets: TestSocket[] = [];
  const TOPICS = ['orders', 'station:bar', 'reservations', 'waitlist'];
  const follow = async (key: string) => {
    const s = await TestSocket.open(hub.url);
    sockets.push(s);
    expect((await s.auth(key)).type).toBe('authenticated');
    const [ack] = await s.subscribe(TOPICS);
    expect(ack).toMatchObject({ type: 'subscribed', data: { topics: TOPICS } });
    return s;
  };

  beforeAll(async () => {
    hub = await startHub(dialect);
    await openWaitlist(hub);
    for (const number of [77, 78]) expect((await hub.api.post('/v1/tables', { number, capacity: 4 })).status).toBe(201);
  });
  afterAll(async () => {
    for (const s of sockets) s.ws.terminate();
    await hub?.close();
  });

  it('each mode hears only its own orders, bookings, waitlist entries and deletes', async () => {
    const live = await follow(hub.keys.secret);
    const test = await follow(hub.keys.sandbox);
    const modes = { live: hub.api, test: hub.api.withKey(hub.keys.sandbox) };

    // rows of both modes, of every feed, and a deleted order of each mode
    const made: Record<'live' | 'test', string[]> = { live: [], test: [] };
    for (const [mode, api] of Object.entries(modes) as ['live' | 'test', typeof hub.api][]) {
      const actor = actorFor(hub.server.services, hub.restaurant.id, mode === 'live');
      const { order } = await placeOrder(hub.server.services, actor, { lines: [{ station: 'bar' }] });
      const booking = await api.post('/v1/reservations', { guest_name: `Booked ${mode}`, party_size: 2, date: '2026-11-16', time: '12:00' });
      expect(booking.status, JSON.stringify(booking.body)).toBe(201);
      const walkIn = await api.post('/v1/waitlist', { guest_name: `Walk-in ${mode}`, party_size: 2 });
      expect(walkIn.status, JSON.stringify(walkIn.body)).toBe(201);
      const { order: gone } = await placeOrder(hub.server.services, actor, { lines: [{ station: 'bar' }] });
      await hub.server.services.tx.run(async (trx) => {
        for (const line of await trx.selectFrom('order_items').select('id').where('order_id', '=', gone.id).execute()) await deleteRecord(trx, 'order_items', { id: line.id });
        await deleteRecord(trx, 'orders', { id: gone.id, restaurant_id: hub.restaurant.id });
      });
      made[mode].push(order.id, booking.body.id, walkIn.body.id, gone.id);
    }
    // a last sandbox order and a last live one mark the end of what each socket may hear
    const endTest = (await placeOrder(hub.server.services, actorFor(hub.server.services, hub.restaurant.id, false), { lines: [{ station: 'bar' }] })).order.id;
    const endLive = (await placeOrder(hub.server.services, actorFor(hub.server.services, hub.restaurant.id, true), { lines: [{ station: 'bar' }] })).order.id;

    const heard = async (s: TestSocket, end: string) => {
      const ids = new Set<string>();
      for (;;) {
        const m = await s.next();
        ids.add(m.data.id);
        if (m.data.id === end && m.topic === 'orders') return ids;
      }
    };
    const liveHeard = await heard(live, endLive);
    const testHeard = await heard(test, endTest);
    for (const id of made.live) {
      expect(liveHeard.has(id), `live key hears live ${id}`).toBe(true);
      expect(testHeard.has(id), `sandbox key hears live ${id}`).toBe(false);
    }
    for (const id of made.test) {
      expect(testHeard.has(id), `sandbox key hears sandbox ${id}`).toBe(true);
      expect(liveHeard.has(id), `live key hears sandbox ${id}`).toBe(false);
    }
    expect(liveHeard.has(endTest)).toBe(false);
  });
});
