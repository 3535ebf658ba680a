import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { emit, sweep } from './helpers.ts';
import { until } from '../helpers/until.ts';

/**
 * A receiver whose answers the test decides: `answer` says a status, or 'hold' to keep the
 * request waiting until `release` answers it, so an attempt stays in flight for as long as
 * the test needs (no timing involved).
 */
class HeldReceiver {
  received = 0;
  answer: (n: number) => number | 'hold' = () => 200;
  private held: http.ServerResponse[] = [];
  private server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const a = this.answer(++this.received);
      if (a === 'hold') this.held.push(res);
      else res.writeHead(a).end('ok');
    });
  });
  url = '';

  static async start(): Promise<HeldReceiver> {
    const r = new HeldReceiver();
    await new Promise<void>((resolve) => r.server.listen(0, '127.0.0.1', () => resolve()));
    r.url = `http://127.0.0.1:${(r.server.address() as AddressInfo).port}/hook`;
    return r;
  }

  /** Answers every held request with `status`. */
  release(status: number): void {
    for (const res of this.held.splice(0)) res.writeHead(status).end('ok');
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

describe.each(DIALECTS)('a resend while an attempt is in flight, on %s', (dialect) => {
  let hub: TestHub;
  const receivers: HeldReceiver[] = [];
  let n = 0;

  beforeAll(async () => {
    hub = await startHub(dialect, { config: { webhooks: { timeoutMs: 10_000 } } });
  });
  afterAll(() => hub?.close());
  afterEach(async () => {
    for (const r of receivers) r.release(500);
    await Promise.all(receivers.splice(0).map((r) => r.close()));
  });

  async function setup() {
    const v = await hub.addRestaurant(`resend-${dialect}-${++n}`);
    const rcv = await HeldReceiver.start();
    receivers.push(rcv);
    const ep = await v.api.post('/v1/webhook_endpoints', { url: rcv.url, enabled_events: ['*'] });
    expect(ep.status).toBe(201);
    return { api: v.api, restaurantId: v.restaurant.id, rcv };
  }

  it('during the last scheduled attempt: that attempt goes into the history, and a new round sends an 11th', async () => {
    const { api, restaurantId, rcv } = await setup();
    rcv.answer = (i) => (i < 10 ? 500 : i === 10 ? 'hold' : 200);
    const ev = await emit(hub, 'order.created', { restaurantId });
    await sweep(hub);
    for (let i = 0; i < 8; i++) {
      const d = (await api.get(`/v1/events/${ev.id}`)).body.deliveries[0];
      hub.clock.set(d.next_retry_at * 1000);
      await sweep(hub);
    }
    expect(rcv.received).toBe(9);
    const d = (await api.get(`/v1/events/${ev.id}`)).body.deliveries[0];
    expect(d).toMatchObject({ status: 'pending' });
    expect(d.attempts).toHaveLength(9);

    // the 10th and last scheduled attempt is in flight
    hub.clock.set(d.next_retry_at * 1000);
    const swept = sweep(hub);
    await until('the receiver got all ten', () => rcv.received === 10, { diagnose: () => `${rcv.received} received` });
    const re = await api.post(`/v1/events/${ev.id}/resend`, {});
    expect(re.status).toBe(200);
    expect(re.body.status).toBe('pending');
    expect(re.body.deliveries[0].status).toBe('pending');
    rcv.release(500); // the in-flight attempt fails
    await swept;
    await sweep(hub); // due at once: no clock change needed

    expect(rcv.received).toBe(11);
    const shown = (await api.get(`/v1/events/${ev.id}`)).body;
    expect(shown.status).toBe('delivered');
    expect(shown.deliveries).toHaveLength(1);
    expect(shown.deliveries[0]).toMatchObject({ status: 'delivered', next_retry_at: null });
    expect(shown.deliveries[0].attempts.map((a: any) => [a.response_status, a.succeeded])).toEqual([
      ...Array.from({ length: 10 }, () => [500, false]),
      [200, true],
    ]);
  });

  it('during a first attempt that succeeds: the event is still sent again', async () => {
    const { api, restaurantId, rcv } = await setup();
    rcv.answer = (i) => (i === 1 ? 'hold' : 200);
    const ev = await emit(hub, 'order.created', { restaurantId });
    const swept = sweep(hub);
    await until('the receiver got one', () => rcv.received === 1, { diagnose: () => `${rcv.received} received` });
    const re = await api.post(`/v1/events/${ev.id}/resend`, {});
    expect(re.status).toBe(200);
    expect(re.body.status).toBe('pending');
    rcv.release(200);
    await swept;
    await sweep(hub);

    expect(rcv.received).toBe(2);
    const shown = (await api.get(`/v1/events/${ev.id}`)).body;
    expect(shown.status).toBe('delivered');
    expect(shown.deliveries[0].status).toBe('delivered');
    expect(shown.deliveries[0].attempts.map((a: any) => [a.response_status, a.succeeded])).toEqual([
      [200, true],
      [200, true],
    ]);
  });

  it('during an attempt that fails: the new round is sent at once, not after the backoff', async () => {
    const { api, restaurantId, rcv } = await setup();
    rcv.answer = (i) => (i === 1 ? 'hold' : 200);
    const ev = await emit(hub, 'order.created', { restaurantId });
    const swept = sweep(hub);
    await until('the receiver got one', () => rcv.received === 1, { diagnose: () => `${rcv.received} received` });
    expect((await api.post(`/v1/events/${ev.id}/resend`, {})).status).toBe(200);
    rcv.release(500);
    await swept;
    await sweep(hub); // the clock has not moved: a retry on the schedule would not be due yet

    expect(rcv.received).toBe(2);
    const shown = (await api.get(`/v1/events/${ev.id}`)).body;
    expect(shown.status).toBe('delivered');
    expect(shown.deliveries[0].attempts.map((a: any) => [a.response_status, a.succeeded])).toEqual([
      [500, false],
      [200, true],
    ]);
  });
});
