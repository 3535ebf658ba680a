import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RETRY_DELAYS_MS, MAX_ATTEMPTS } from '../../server/domain/webhooks/backoff.ts';
import { purgeSettled } from '../../server/domain/webhooks/retention.ts';
import { WEBHOOK_JOBS } from '../../server/features/webhooks.ts';
import { DIALECTS } from '../helpers/db.ts';
import { countRows, startHub, type ApiClient, type TestHub } from '../helpers/server.ts';
import { emit, Receiver, sweep } from './helpers.ts';

describe.each(DIALECTS)('webhook delivery on %s', (dialect) => {
  let hub: TestHub;
  const receivers: Receiver[] = [];
  let n = 0;

  beforeAll(async () => {
    hub = await startHub(dialect, { config: { webhooks: { timeoutMs: 2000, sandboxPrivateTargets: true } } }); // receivers on loopback, sandbox ones too
  });
  afterAll(() => hub?.close());
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.close()));
  });

  /** A restaurant of its own per test, so endpoints of one test never get another's events. */
  async function venue() {
    const v = await hub.addRestaurant(`venue-${dialect}-${++n}`);
    return { api: v.api, id: v.restaurant.id, keys: v.keys };
  }
  async function receiver(): Promise<Receiver> {
    const r = await Receiver.start();
    receivers.push(r);
    return r;
  }
  async function endpoint(api: ApiClient, rcv: Receiver, body: Record<string, unknown> = {}, key?: string) {
    const r = await api.post('/v1/webhook_endpoints', { url: rcv.url, enabled_events: ['*'], ...body }, key ? { key } : undefined);
    expect(r.status).toBe(201);
    rcv.secret = r.body.secret;
    return r.body as { id: string; secret: string };
  }
  const nowSec = () => Math.floor(hub.clock.now() / 1000);

  it('fans each event out to the endpoints as they are when it is written (a change shows at once)', async () => {
    const v = await venue();
    const rcv = await receiver();
    const ep = await endpoint(v.api, rcv, { enabled_events: ['order.created'] });
    const deliveriesOf = async (eventId: string) =>
      (await hub.server.services.db.selectFrom('webhook_deliveries').select('endpoint_id').where('event_id', '=', eventId).execute()).map((d) => d.endpoint_id);
    const object = { id: 'ord_x', object: 'order' };
    expect(await deliveriesOf((await emit(hub, 'order.created', { restaurantId: v.id, object })).id)).toEqual([ep.id]);
    expect((await v.api.patch(`/v1/webhook_endpoints/${ep.id}`, { enabled_events: ['reservation.created'] })).status).toBe(200);
    expect(await deliveriesOf((await emit(hub, 'order.created', { restaurantId: v.id, object })).id)).toEqual([]);
    const second = await endpoint(v.api, rcv, { enabled_events: ['order.created'] });
    expect(await deliveriesOf((await emit(hub, 'order.created', { restaurantId: v.id, object })).id)).toEqual([second.id]);
    expect((await v.api.delete(`/v1/webhook_endpoints/${second.id}`)).status).toBe(200);
    expect(await deliveriesOf((await emit(hub, 'order.created', { restaurantId: v.id, object })).id)).toEqual([]);
  });

  it('signs deliveries the Standard Webhooks way; the receiver verifies them with the standardwebhooks package', async () => {
    const v = await venue();
    const rcv = await receiver();
    const ep = await endpoint(v.api, rcv, { enabled_events: ['order.created'] });
    const object = { id: 'ord_1', object: 'order', total: 4200 };
    const ev = await emit(hub, 'order.created', { restaurantId: v.id, object });
    await sweep(hub);
    expect(rcv.received).toHaveLength(1);
    const got = rcv.received[0];
    expect(got.verified).toBe(true);
    expect(got.headers['webhook-id']).toBe(ev.id);
    expect(got.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(Number(got.headers['webhook-timestamp'])).toBeGreaterThan(0);
    expect(JSON.parse(got.body)).toMatchObject({ id: ev.id, object: 'event', type: 'order.created', livemode: true, data: { object } });

    const shown = await v.api.get(`/v1/events/${ev.id}`);
    expect(shown.status).toBe(200);
    expect(shown.body.status).toBe('delivered');
    expect(shown.body.deliveries).toEqual([
      {
        endpoint: ep.id,
        url: rcv.url,
        status: 'delivered',
        delivered_at: nowSec(),
        next_retry_at: null,
        attempts: [{ attempted_at: nowSec(), response_status: 200, duration_ms: expect.any(Number), error: null, succeeded: true }],
      },
    ]);
  });

  it('a tampered signature does not verify (the receiver check is real)', async () => {
    const v = await venue();
    const rcv = await receiver();
    await endpoint(v.api, rcv);
    rcv.secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    await emit(hub, 'order.created', { restaurantId: v.id });
    await sweep(hub);
    expect(rcv.received.map((r) => r.verified)).toEqual([false]);
  });

  it('sends only subscribed types, and sandbox events only to sandbox endpoints', async () => {
    const v = await venue();
    const live = await receiver();
    const sandbox = await receiver();
    await endpoint(v.api, live, { enabled_events: ['order.created', 'reservation.cancelled'] });
    await endpoint(v.api, sandbox, { enabled_events: ['*'] }, v.keys.sandbox);
    const created = await emit(hub, 'order.created', { restaurantId: v.id });
    const updated = await emit(hub, 'order.updated', { restaurantId: v.id });
    const sb = await emit(hub, 'order.updated', { restaurantId: v.id, livemode: false });
    await sweep(hub);
    expect([...live.ids()]).toEqual([created.id]);
    expect([...sandbox.ids()]).toEqual([sb.id]);
    expect(sandbox.received[0].verified).toBe(true);
    const u = await v.api.get(`/v1/events/${updated.id}`);
    expect(u.body).toMatchObject({ status: 'no_endpoints', deliveries: [] });
    // a live key does not see sandbox events
    expect((await v.api.get(`/v1/events/${sb.id}`)).status).toBe(404);
    const sbList = await v.api.get('/v1/events', { key: v.keys.sandbox });
    expect(sbList.body.data.map((e: any) => e.id)).toEqual([sb.id]);
  });

  it('a 500 is retried on the backoff schedule, then a 200 delivers it', async () => {
    const v = await venue();
    const rcv = await receiver();
    rcv.respond = (_r, i) => ({ status: i === 1 ? 500 : 200 });
    await endpoint(v.api, rcv);
    const ev = await emit(hub, 'order.created', { restaurantId: v.id });
    await sweep(hub);
    const t0 = nowSec();
    let shown = (await v.api.get(`/v1/events/${ev.id}`)).body;
    expect(shown.status).toBe('pending');
    const d = shown.deliveries[0];
    expect(d.status).toBe('pending');
    expect(d.attempts).toEqual([{ attempted_at: t0, response_status: 500, duration_ms: expect.any(Number), error: 'The receiver answered 500.', succeeded: false }]);
    // 5 s ± 10 % jitter
    expect(d.next_retry_at).toBeGreaterThanOrEqual(t0 + 4);
    expect(d.next_retry_at).toBeLessThanOrEqual(t0 + 6);

    await sweep(hub); // not due yet
    expect(rcv.received).toHaveLength(1);
    hub.clock.advance(6_000);
    await sweep(hub);
    expect(rcv.received).toHaveLength(2);
    expect(rcv.received.every((r) => r.verified && r.id === ev.id)).toBe(true);
    shown = (await v.api.get(`/v1/events/${ev.id}`)).body;
    expect(shown.status).toBe('delivered');
    expect(shown.deliveries[0]).toMatchObject({ status: 'delivered', delivered_at: t0 + 6, next_retry_at: null });
    expect(shown.deliveries[0].attempts.map((a: any) => [a.response_status, a.succeeded])).toEqual([
      [500, false],
      [200, true],
    ]);
  });

  it('a receiver that hangs times out: a failed attempt with no status, retried later', async () => {
    const v = await venue();
    const rcv = await receiver();
    rcv.respond = () => 'hang';
    await endpoint(v.api, rcv);
    const ev = await emit(hub, 'order.created', { restaurantId: v.id });
    await sweep(hub);
    const d = (await v.api.get(`/v1/events/${ev.id}`)).body.deliveries[0];
    expect(d.status).toBe('pending');
    expect(d.attempts).toHaveLength(1);
    expect(d.attempts[0]).toMatchObject({ response_status: null, succeeded: false });
    expect(d.attempts[0].error).toMatch(/timed out after 2000 ms/);
    expect(d.next_retry_at).not.toBeNull();
  });

  it('a refused connection is a failed attempt', async () => {
    const v = await venue();
    const rcv = await receiver();
    await endpoint(v.api, rcv);
    await rcv.close();
    const ev = await emit(hub, 'order.created', { restaurantId: v.id });
    await sweep(hub);
    const d = (await v.api.get(`/v1/events/${ev.id}`)).body.deliveries[0];
    expect(d.attempts[0]).toMatchObject({ response_status: null, succeeded: false });
    expect(d.attempts[0].error).toMatch(/ECONNREFUSED/);
  });

  it('410 Gone disables the endpoint, fails the delivery and cancels what still waited for it', async () => {
    const v = await venue();
    const rcv = await receiver();
    rcv.respond = (_r, i) => ({ status: i === 1 ? 503 : 410 });
    const ep = await endpoint(v.api, rcv);
    const first = await emit(hub, 'order.created', { restaurantId: v.id });
    await sweep(hub); // 503: retry pending
    hub.clock.advance(10_000);
    const second = await emit(hub, 'order.updated', { restaurantId: v.id });
    await sweep(hub);
    const e = (await v.api.get(`/v1/webhook_endpoints/${ep.id}`)).body;
    expect(e.status).toBe('disabled');
    expect(e.disabled_reason).toMatch(/410/);
    const events = [(await v.api.get(`/v1/events/${first.id}`)).body, (await v.api.get(`/v1/events/${second.id}`)).body];
    const gone = events.filter((x) => x.deliveries[0].attempts.some((a: any) => a.response_status === 410));
    expect(gone.length).toBeGreaterThan(0);
    for (const g of gone) expect(g.deliveries[0]).toMatchObject({ status: 'failed', next_retry_at: null });
    // one that had not been answered 410 itself was cancelled instead
    for (const x of events.filter((e) => !gone.includes(e))) expect(x.deliveries[0].status).toBe('cancelled');
    expect(events.every((x) => x.status === 'failed')).toBe(true);
    // nothing more goes to a disabled endpoint
    const before = rcv.received.length;
    const third = await emit(hub, 'order.created', { restaurantId: v.id });
    hub.clock.advance(3600_000);
    await sweep(hub);
    expect(rcv.received.length).toBe(before);
    expect((await v.api.get(`/v1/events/${third.id}`)).body.status).toBe('no_endpoints');
  });

  it('deleting an endpoint cancels what waited for it and keeps the history on the event', async () => {
    const v = await venue();
    const rcv = await receiver();
    rcv.respond = () => ({ status: 500 });
    const ep = await endpoint(v.api, rcv);
    const ev = await emit(hub, 'order.created', { restaurantId: v.id });
    await sweep(hub);
    expect((await v.api.delete(`/v1/webhook_endpoints/${ep.id}`)).status).toBe(200);
    const shown = (await v.api.get(`/v1/events/${ev.id}`)).body;
    expect(shown.status).toBe('failed');
    expect(shown.deliveries).toHaveLength(1);
    expect(shown.deliveries[0]).toMatchObject({ endpoint: ep.id, url: rcv.url, status: 'cancelled', next_retry_at: null });
    expect(shown.deliveries[0].attempts).toHaveLength(1);
    hub.clock.advance(3600_000);
    await sweep(hub);
    expect(rcv.received).toHaveLength(1);
  });

  it('a URL change applies to deliveries still waiting', async () => {
    const v = await venue();
    const first = await receiver();
    const second = await receiver();
    first.respond = () => ({ status: 500 });
    const ep = await endpoint(v.api, first);
    const ev = await emit(hub, 'order.created', { restaurantId: v.id });
    await sweep(hub);
    expect((await v.api.patch(`/v1/webhook_endpoints/${ep.id}`, { url: second.url })).status).toBe(200);
    hub.clock.advance(10_000);
    await sweep(hub);
    expect([...second.ids()]).toEqual([ev.id]);
    const d = (await v.api.get(`/v1/events/${ev.id}`)).body.deliveries[0];
    expect(d).toMatchObject({ url: second.url, status: 'delivered' });
  });

  it('honours Retry-After on 429 and 503', async () => {
    const v = await venue();
    const rcv = await receiver();
    rcv.respond = (_r, i) => (i === 1 ? { status: 429, headers: { 'retry-after': '3600' } } : { status: 200 });
    await endpoint(v.api, rcv);
    const ev = await emit(hub, 'order.created', { restaurantId: v.id });
    await sweep(hub);
    const t0 = nowSec();
    expect((await v.api.get(`/v1/events/${ev.id}`)).body.deliveries[0].next_retry_at).toBe(t0 + 3600);
    hub.clock.advance(3599_000);
    await sweep(hub);
    expect(rcv.received).toHaveLength(1);
    hub.clock.advance(1_000);
    await sweep(hub);
    expect(rcv.received).toHaveLength(2);
  });

  it('retries on the documented schedule and fails the delivery after the last attempt', async () => {
    const v = await venue();
    const rcv = await receiver();
    rcv.respond = () => ({ status: 500 });
    await endpoint(v.api, rcv);
    const ev = await emit(hub, 'order.created', { restaurantId: v.id });
    await sweep(hub);
    for (let i = 0; i < RETRY_DELAYS_MS.length; i++) {
      const d = (await v.api.get(`/v1/events/${ev.id}`)).body.deliveries[0];
      const last = d.attempts[d.attempts.length - 1].attempted_at;
      const wait = d.next_retry_at - last;
      expect(wait).toBeGreaterThanOrEqual(Math.floor((RETRY_DELAYS_MS[i] * 0.9) / 1000));
      expect(wait).toBeLessThanOrEqual(Math.ceil((RETRY_DELAYS_MS[i] * 1.1) / 1000) + 1);
      hub.clock.set(d.next_retry_at * 1000);
      await sweep(hub);
    }
    const shown = (await v.api.get(`/v1/events/${ev.id}`)).body;
    expect(shown.status).toBe('failed');
    expect(shown.deliveries[0]).toMatchObject({ status: 'failed', next_retry_at: null, delivered_at: null });
    expect(shown.deliveries[0].attempts).toHaveLength(MAX_ATTEMPTS);
    hub.clock.advance(48 * 3600_000);
    await sweep(hub);
    expect(rcv.received).toHaveLength(MAX_ATTEMPTS);
  });

  it('one receiver that hangs does not hold back another', async () => {
    const v = await venue();
    const slow = await receiver();
    const fast = await receiver();
    slow.respond = () => 'hang';
    await endpoint(v.api, slow);
    await endpoint(v.api, fast);
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push((await emit(hub, 'order.created', { restaurantId: v.id })).id);
    await sweep(hub);
    expect(fast.ids()).toEqual(new Set(ids));
    expect(fast.received.every((r) => r.verified)).toBe(true);
    // every event also got its (timed-out) attempt at the slow one
    expect(slow.ids()).toEqual(new Set(ids));
  });

  it('signs with both secrets while a rolled secret is still valid', async () => {
    const v = await venue();
    const rcv = await receiver();
    const ep = await endpoint(v.api, rcv);
    const rolled = await v.api.post(`/v1/webhook_endpoints/${ep.id}/roll_secret`, { expires_in: 3600 });
    expect(rolled.status).toBe(200);
    rcv.secret = ep.secret; // the old one still verifies
    await emit(hub, 'order.created', { restaurantId: v.id });
    await sweep(hub);
    rcv.secret = rolled.body.secret; // and so does the new one
    await emit(hub, 'order.created', { restaurantId: v.id });
    await sweep(hub);
    expect(rcv.received.map((r) => r.verified)).toEqual([true, true]);
    expect(String(rcv.received[0].headers['webhook-signature']).split(' ')).toHaveLength(2);
    hub.clock.advance(3601_000);
    await emit(hub, 'order.created', { restaurantId: v.id });
    await sweep(hub);
    expect(String(rcv.received[2].headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(rcv.received[2].verified).toBe(true);
  });

  it('resends an event on request, keeping the attempt history', async () => {
    const v = await venue();
    const rcv = await receiver();
    const ep = await endpoint(v.api, rcv, { enabled_events: ['order.created'] });
    const ev = await emit(hub, 'order.created', { restaurantId: v.id });
    await sweep(hub);
    const again = await v.api.post(`/v1/events/${ev.id}/resend`, {});
    expect(again.status).toBe(200);
    expect(again.body.status).toBe('pending');
    expect(again.body.deliveries[0]).toMatchObject({ endpoint: ep.id, status: 'pending', delivered_at: null, next_retry_at: null });
    await sweep(hub);
    const shown = (await v.api.get(`/v1/events/${ev.id}`)).body;
    expect(shown.status).toBe('delivered');
    expect(shown.deliveries[0].attempts).toHaveLength(2);
    expect(rcv.received.map((r) => r.id)).toEqual([ev.id, ev.id]);

    // to an endpoint the event never went to
    const other = await receiver();
    const ep2 = await endpoint(v.api, other, { enabled_events: ['reservation.updated'] });
    const to2 = await v.api.post(`/v1/events/${ev.id}/resend`, { endpoint: ep2.id });
    expect(to2.status).toBe(200);
    expect(to2.body.deliveries.map((d: any) => d.endpoint).sort()).toEqual([ep.id, ep2.id].sort());
    await sweep(hub);
    expect([...other.ids()]).toEqual([ev.id]);
    expect(other.received[0].verified).toBe(true);
  });

  it('refuses bad resends and writes nothing', async () => {
    const v = await venue();
    const rcv = await receiver();
    const ep = await endpoint(v.api, rcv);
    const ev = await emit(hub, 'order.created', { restaurantId: v.id });
    await sweep(hub);
    const elsewhere = await venue();
    const theirs = await emit(hub, 'order.created', { restaurantId: elsewhere.id });
    const theirEp = await elsewhere.api.post('/v1/webhook_endpoints', { url: rcv.url, enabled_events: ['*'] });
    const disabled = await v.api.post('/v1/webhook_endpoints', { url: rcv.url, enabled_events: ['*'], status: 'disabled' });
    const counts = async () => [await countRows(hub, 'webhook_deliveries'), await countRows(hub, 'webhook_attempts'), await countRows(hub, 'change_log')];
    const before = await counts();
    const cases: [string, unknown, number, string][] = [
      [`/v1/events/evt_nope/resend`, {}, 404, 'resource_missing'],
      [`/v1/events/${theirs.id}/resend`, {}, 404, 'resource_missing'],
      [`/v1/events/${ev.id}/resend`, { endpoint: 'we_nope' }, 404, 'resource_missing'],
      [`/v1/events/${ev.id}/resend`, { endpoint: theirEp.body.id }, 404, 'resource_missing'],
      [`/v1/events/${ev.id}/resend`, { endpoint: disabled.body.id }, 409, 'state_conflict'],
      [`/v1/events/${ev.id}/resend`, { endpoint: 42 }, 400, 'parameter_invalid'],
      [`/v1/events/${ev.id}/resend`, { endpoint: 'x'.repeat(65) }, 400, 'parameter_invalid'],
    ];
    for (const [path, body, status, code] of cases) {
      const r = await v.api.post(path, body);
      expect(r.status, `${path} ${JSON.stringify(body)}`).toBe(status);
      expect(r.body.error.code).toBe(code);
    }
    // another restaurant's event does not resolve on read either
    expect((await v.api.get(`/v1/events/${theirs.id}`)).status).toBe(404);
    expect((await v.api.get('/v1/events?limit=100')).body.data.some((e: any) => e.id === theirs.id)).toBe(false);
    // a sandbox key cannot resend a live event
    expect((await v.api.post(`/v1/events/${ev.id}/resend`, {}, { key: v.keys.sandbox })).status).toBe(404);
    // an event whose only endpoint is now disabled has nothing to resend to
    await v.api.patch(`/v1/webhook_endpoints/${ep.id}`, { status: 'disabled' });
    const mid = await counts();
    const none = await v.api.post(`/v1/events/${ev.id}/resend`, {});
    expect(none.status).toBe(409);
    expect(await counts()).toEqual(mid);
    expect(mid[0]).toBe(before[0]);
    expect(mid[1]).toBe(before[1]);
  });

  it('lists events with their deliveries, filtered by type, refusing unknown parameters', async () => {
    const v = await venue();
    const rcv = await receiver();
    await endpoint(v.api, rcv);
    const a = await emit(hub, 'order.created', { restaurantId: v.id });
    hub.clock.advance(1000);
    const b = await emit(hub, 'order.cancelled', { restaurantId: v.id });
    await sweep(hub);
    const all = await v.api.get('/v1/events');
    expect(all.status).toBe(200);
    expect(all.body.data.map((e: any) => e.id)).toEqual([b.id, a.id]);
    expect(all.body.data.every((e: any) => e.deliveries.length === 1 && e.deliveries[0].attempts.length === 1)).toBe(true);
    const only = await v.api.get('/v1/events?type=order.cancelled');
    expect(only.body.data.map((e: any) => e.id)).toEqual([b.id]);
    const page = await v.api.get('/v1/events?limit=1');
    expect(page.body.has_more).toBe(true);
    const next = await v.api.get(`/v1/events?limit=1&starting_after=${page.body.next_cursor}`);
    expect(next.body.data.map((e: any) => e.id)).toEqual([a.id]);
    expect((await v.api.get('/v1/events?status=delivered')).body.error.code).toBe('parameter_unknown');
    expect((await v.api.get('/v1/events?limit=0')).status).toBe(400);
    expect((await v.api.get(`/v1/events?type=${'x'.repeat(101)}`)).status).toBe(400);
    expect((await v.api.get('/v1/events/evt_nope')).status).toBe(404);
  });

  it('keeps events 30 days, then drops settled ones with their deliveries; pending ones stay', async () => {
    const v = await venue();
    const rcv = await receiver();
    rcv.respond = (r) => ({ status: JSON.parse(r.body).type === 'order.updated' ? 500 : 200 });
    await endpoint(v.api, rcv);
    const settled = await emit(hub, 'order.created', { restaurantId: v.id });
    const retrying = await emit(hub, 'order.updated', { restaurantId: v.id });
    await sweep(hub);
    hub.clock.advance(29 * 86_400_000);
    await hub.server.scheduler.runNow(WEBHOOK_JOBS.eventRetention);
    expect((await v.api.get(`/v1/events/${settled.id}`)).status).toBe(200);
    hub.clock.advance(2 * 86_400_000);
    const fresh = await emit(hub, 'order.created', { restaurantId: v.id });
    // keep the retrying one pending: its retry is not swept
    await hub.server.scheduler.runNow(WEBHOOK_JOBS.eventRetention);
    expect((await v.api.get(`/v1/events/${settled.id}`)).status).toBe(404);
    expect((await v.api.get(`/v1/events/${fresh.id}`)).status).toBe(200);
    const r = await v.api.get(`/v1/events/${retrying.id}`);
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('pending');
    const db = hub.server.services.db;
    expect(await db.selectFrom('webhook_deliveries').select('id').where('event_id', '=', settled.id).execute()).toEqual([]);
    expect(await db.selectFrom('webhook_attempts').select('n').where('event_id', '=', settled.id).execute()).toEqual([]);
  });

  it('an old event resent after the purge read it as settled is kept, with its new delivery', async () => {
    const v = await venue();
    const rcv = await receiver();
    await endpoint(v.api, rcv);
    const old = await emit(hub, 'order.created', { restaurantId: v.id });
    await sweep(hub);
    expect((await v.api.get(`/v1/events/${old.id}`)).body.status).toBe('delivered');
    hub.clock.advance(31 * 86_400_000);
    // the purge has read the event as settled; a resend lands before it deletes
    const read = [old.id];
    expect((await v.api.post(`/v1/events/${old.id}/resend`, {})).body.status).toBe('pending');
    expect(await hub.server.services.tx.run((trx) => purgeSettled(trx, read))).toBe(0);
    const kept = await v.api.get(`/v1/events/${old.id}`);
    expect(kept.body.status).toBe('pending');
    await sweep(hub);
    expect((await v.api.get(`/v1/events/${old.id}`)).body.status).toBe('delivered');
  });
});
