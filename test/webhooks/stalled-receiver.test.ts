import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { postWebhook } from '../../server/domain/webhooks/send.ts';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { emit, sweep } from './helpers.ts';
import { until } from '../helpers/until.ts';

/**
 * A receiver that answers `/stall` with a status line and one byte of body, then never ends
 * the body; `/ok` is answered in full. Counts the connections it has open.
 */
class StallingReceiver {
  open = 0;
  requests = 0;
  private server = http.createServer((req, res) => {
    this.requests++;
    req.resume();
    req.on('end', () => {
      if (req.url === '/ok') return void res.writeHead(200).end('ok');
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('x'); // ...and nothing more, ever
    });
  });
  base = '';

  static async start(): Promise<StallingReceiver> {
    const r = new StallingReceiver();
    r.server.on('connection', (s) => {
      r.open++;
      s.on('close', () => r.open--);
    });
    await new Promise<void>((resolve) => r.server.listen(0, '127.0.0.1', () => resolve()));
    r.base = `http://127.0.0.1:${(r.server.address() as AddressInfo).port}`;
    return r;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const send = (url: string, timeoutMs: number) => postWebhook({ url, body: '{}', headers: {}, timeoutMs, allowPrivateTargets: true });

describe('webhook sender and a receiver that never finishes its answer', () => {
  let rcv: StallingReceiver;
  beforeEach(async () => {
    rcv = await StallingReceiver.start();
  });
  afterEach(() => rcv?.close());

  it('the status line decides the outcome, and the connection is closed by the deadline', async () => {
    const r = await send(`${rcv.base}/stall`, 300);
    expect(r).toMatchObject({ status: 200, error: null });
    expect(rcv.requests).toBe(1);
    await until('every connection to the receiver closed', () => rcv.open === 0, { diagnose: () => `${rcv.open} open` });
  });

  it('more stalled answers than the agent keeps sockets for do not make the host unreachable', async () => {
    const stalled = await Promise.all(Array.from({ length: 70 }, () => send(`${rcv.base}/stall`, 300)));
    expect(stalled.some((r) => r.status === 200 && r.error === null)).toBe(true);
    const later = await send(`${rcv.base}/ok`, 5_000);
    expect(later).toMatchObject({ status: 200, error: null });
    await until('at most one connection to the receiver open', () => rcv.open <= 1, { diagnose: () => `${rcv.open} open` });
  });
});

describe.each(DIALECTS)('dispatching to a receiver that never finishes its answer, on %s', (dialect) => {
  let hub: TestHub;
  let rcv: StallingReceiver;

  beforeAll(async () => {
    hub = await startHub(dialect, { config: { webhooks: { timeoutMs: 300, sandboxPrivateTargets: true } } });
  });
  afterAll(() => hub?.close());
  beforeEach(async () => {
    rcv = await StallingReceiver.start();
  });
  afterEach(() => rcv?.close());

  it('delivers on the status line and frees the connection within the timeout', async () => {
    const ep = await hub.api.post('/v1/webhook_endpoints', { url: `${rcv.base}/stall`, enabled_events: ['*'] });
    expect(ep.status).toBe(201);
    const ev = await emit(hub, 'order.created');
    await sweep(hub);
    expect(rcv.requests).toBe(1);
    const shown = (await hub.api.get(`/v1/events/${ev.id}`)).body;
    expect(shown.status).toBe('delivered');
    expect(shown.deliveries[0].attempts).toEqual([
      { attempted_at: expect.any(Number), response_status: 200, duration_ms: expect.any(Number), error: null, succeeded: true },
    ]);
    await until('every connection to the receiver closed', () => rcv.open === 0, { diagnose: () => `${rcv.open} open` });
  });
});
