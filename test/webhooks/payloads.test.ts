import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../server/model/events.ts';
import { DIALECTS } from '../helpers/db.ts';
import { checkWebhookBody, openApiDocument } from '../helpers/openapi-conformance.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { openWaitlist } from '../guest/helpers.ts';
import { seedMenu } from '../orders/fixtures.ts';
import { EVERY_DAY_NOON_TO_ELEVEN } from '../reservations/helpers.ts';
import { until } from '../helpers/until.ts';
import { Receiver, sweep } from './helpers.ts';

/**
 * Every event type, made the way a venue makes it (through the API, the waitlist's expiry
 * job), delivered to a real receiver: each delivery's body must be of the OpenAPI document's
 * `webhooks` entry for its type, and a prefix subscription gets exactly its resource's types.
 */
describe.each(DIALECTS)('webhook payloads against the document on %s', (dialect) => {
  let hub: TestHub;
  let all: Receiver;
  let orders: Receiver;
  beforeAll(async () => {
    hub = await startHub(dialect);
    all = await Receiver.start();
    orders = await Receiver.start();
    for (const [url, enabled_events] of [[all.url, ['*']], [orders.url, ['order.*', 'waitlist.seated']]] as const) {
      const r = await hub.api.post('/v1/webhook_endpoints', { url, enabled_events });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
    }
  });
  afterAll(async () => {
    await hub?.close();
    await all?.close();
    await orders?.close();
  });

  const ok = async (p: Promise<{ status: number; body: any }>) => {
    const r = await p;
    expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
    return r.body;
  };

  it('documents one webhook per event type, each body typed by its type', () => {
    const doc = openApiDocument();
    expect(Object.keys(doc.webhooks).sort()).toEqual([...EVENT_TYPES].sort());
    expect(doc.components.schemas.OrderCreatedEvent.properties.data.properties.object).toEqual({ $ref: '#/components/schemas/Order' });
    expect(doc.components.schemas.Event.properties.type.enum).toEqual([...EVENT_TYPES]);
  });

  it('fires every event type; each delivery validates against its webhook, times in Unix seconds', async () => {
    const api = hub.api;
    // waitlist: joined, notified, seated; another cancelled; a third notified and left to expire
    await openWaitlist(hub, api, { notify_expiry_minutes: 15 });
    const party = async () => (await ok(api.post('/v1/waitlist', { guest_name: 'Walk-in', party_size: 2 }))).id;
    const seated = await party();
    await ok(api.post(`/v1/waitlist/${seated}/notify`, {}));
    await ok(api.post(`/v1/waitlist/${seated}/seat`));
    await ok(api.delete(`/v1/waitlist/${await party()}`));
    const late = await party();
    await ok(api.post(`/v1/waitlist/${late}/notify`, {}));
    hub.clock.advance(16 * 60_000);
    await hub.server.scheduler.runNow('waitlist-expiry');

    // orders and service at the table
    const menu = await seedMenu(hub);
    const o = await ok(
      api.post('/v1/orders', {
        type: 'dine_in',
        table: menu.table,
        hold_courses: [2],
        items: [
          { menu_item: menu.steak, quantity: 1, modifiers: ['Rare'], seat: 1, course: 1 },
          { menu_item: menu.pasta, quantity: 1, seat: 2, course: 2 },
          { menu_item: menu.water, quantity: 2, seat: 1, course: 1 },
        ],
      }),
    );
    await ok(api.patch(`/v1/orders/${o.id}`, { status: 'placed' }));
    await ok(api.post(`/v1/orders/${o.id}/fire`, { course: 2 }));
    await ok(api.post(`/v1/orders/${o.id}/items/0/void`, { reason: 'wrong table' }));
    await ok(api.post(`/v1/orders/${o.id}/items/2/discount`, { amount: 100, reason: 'regular' }));
    await ok(api.post(`/v1/orders/${o.id}/move_items`, { items: [1], seat: 3 }));
    await ok(api.post(`/v1/orders/${o.id}/transfer`, { table: menu.table2 }));
    const second = await ok(api.post('/v1/orders', { type: 'dine_in', table: menu.table, status: 'placed', items: [{ menu_item: menu.water, quantity: 1 }] }));
    const merged = await ok(api.post(`/v1/orders/${o.id}/merge`, { from: second.id }));
    const paid = await ok(api.post(`/v1/orders/${o.id}/payments`, { method: 'card', amount: merged.amount_due }));
    await ok(api.post(`/v1/payments/${paid.id}/refund`, { amount: 100, reason: 'cold soup' }));
    const done = await ok(api.post('/v1/orders', { type: 'takeout', items: [{ menu_item: menu.water, quantity: 1 }] }));
    await ok(api.patch(`/v1/orders/${done.id}`, { status: 'completed' }));
    const dropped = await ok(api.post('/v1/orders', { type: 'takeout', items: [{ menu_item: menu.water, quantity: 1 }] }));
    await ok(api.post(`/v1/orders/${dropped.id}/cancel`, { cancel_reason: 'guest left' }));

    // reservations: created, updated, cancelled; another a no-show once its time has passed
    await ok(api.patch('/v1/settings', { timezone: 'Europe/Berlin', opening_hours: EVERY_DAY_NOON_TO_ELEVEN }));
    await ok(api.post('/v1/tables', { number: 91, capacity: 4, min_capacity: 1 }));
    await ok(api.post('/v1/tables', { number: 92, capacity: 4, min_capacity: 1 }));
    const book = (time: string) => ok(api.post('/v1/reservations', { guest_name: 'Ada Lovelace', party_size: 2, date: '2026-11-02', time }));
    const changed = await book('20:00');
    await ok(api.patch(`/v1/reservations/${changed.id}`, { special_requests: 'window' }));
    await ok(api.patch(`/v1/reservations/${changed.id}/status`, { status: 'cancelled' }));
    const missed = await book('14:00');
    hub.clock.advance(2 * 60 * 60_000);
    await ok(api.patch(`/v1/reservations/${missed.id}/status`, { status: 'no_show' }));

    const seen = () => new Set(all.received.map((r) => JSON.parse(r.body).type));
    await sweep(hub);
    await until('a delivery of every event type', () => seen().size === EVENT_TYPES.length, { timeout: 30_000, diagnose: () => `received ${[...seen()].join(', ')}` });
    await sweep(hub);

    const wrong = all.received.map((r) => checkWebhookBody(JSON.parse(r.body))).filter((p) => p !== null);
    expect(wrong).toEqual([]);
    for (const r of all.received) {
      const body = JSON.parse(r.body);
      expect(Number.isInteger(body.created)).toBe(true);
      expect(body).not.toHaveProperty('timestamp');
      expect(r.headers['webhook-id']).toBe(body.id);
    }
    // the body is the event as the API lists it, minus its delivery bookkeeping
    const listed = (await api.get(`/v1/events?type=order.*&limit=100`)).body.data;
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((e: any) => e.type.startsWith('order.'))).toBe(true);
    const first = JSON.parse(all.received.find((r) => JSON.parse(r.body).id === listed[0].id)!.body);
    const { status: _s, deliveries: _d, ...asListed } = listed[0];
    expect(first).toEqual(asListed);

    // `order.*` with one more type: the order events and that one, nothing else
    const types = new Set(orders.received.map((r) => JSON.parse(r.body).type as string));
    expect([...types].sort()).toEqual([...EVENT_TYPES.filter((t) => t.startsWith('order.')), 'waitlist.seated'].sort());
  });
});
