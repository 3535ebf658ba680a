import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RealtimeOptions } from '../../server/realtime/options.ts';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { actorFor, placeOrder } from './fixtures.ts';
import { stuckSubscriber, TestSocket } from './socket.ts';

describe.each(DIALECTS)('realtime resilience on %s', (dialect) => {
  // each test gets a server tuned for it, so short timers never touch another test's screens
  let hub: TestHub;
  const sockets: TestSocket[] = [];
  const start = async (realtime: Partial<RealtimeOptions>) => {
    hub = await startHub(dialect, { config: { realtime } });
  };
  const open = async (opts?: Parameters<typeof TestSocket.open>[1]) => {
    const s = await TestSocket.open(hub.url, opts);
    sockets.push(s);
    return s;
  };
  const actor = () => actorFor(hub.server.services, hub.restaurant.id);
  const rt = () => hub.server.services.realtime!.hub;

  afterEach(async () => {
    for (const s of sockets.splice(0)) s.ws.terminate();
    await hub?.close();
  });

  it('a seq older than the resume window gets resync, then live messages', async () => {
    await start({ resumeMaxChanges: 5 });
    const s = await open();
    await s.auth(hub.keys.widget);
    const [ack] = await s.subscribe(['orders']);
    await s.close();
    // three orders: nine change-log entries, more than the window of five
    for (let i = 0; i < 3; i++) await placeOrder(hub.server.services, actor(), { lines: [{ station: 'bar' }] });
    const back = await open();
    await back.auth(hub.keys.widget);
    const got = await back.subscribe(['orders'], ack.seq);
    expect(got.map((m) => m.type)).toEqual(['resync', 'subscribed']);
    expect(got[0].data.reason).toBe('too_old');
    const { order } = await placeOrder(hub.server.services, actor(), { lines: [{ station: 'bar' }] });
    expect((await back.next()).data.id).toBe(order.id);
  });

  it('a backlog larger than a client may have unsent gets resync (too_large), not a cut-off replay', async () => {
    await start({ maxBufferedBytes: 4096 });
    const s = await open();
    await s.auth(hub.keys.widget);
    const [ack] = await s.subscribe(['orders']);
    await s.close();
    for (let i = 0; i < 6; i++) await placeOrder(hub.server.services, actor(), { lines: [{ station: 'bar' }, { station: 'kitchen' }] });
    const back = await open();
    await back.auth(hub.keys.widget);
    const got = await back.subscribe(['orders'], ack.seq);
    expect(got.map((m) => m.type)).toEqual(['resync', 'subscribed']);
    expect(got[0].data.reason).toBe('too_large');
    expect(got[1].data).toMatchObject({ replayed: 0, resync: true });
    const { order } = await placeOrder(hub.server.services, actor(), { lines: [{ station: 'bar' }] });
    expect((await back.next()).data.id).toBe(order.id);
  });

  it('closes a socket that never authenticates', async () => {
    await start({ authTimeoutMs: 100 });
    const s = await open();
    expect(await s.next()).toMatchObject({ type: 'error', data: { code: 'api_key_missing' } });
    expect((await s.closed).code).toBe(4408);
  });

  it('drops a connection that stops answering pings; a live one gets heartbeats with the log position', async () => {
    await start({ heartbeatMs: 1000 });
    const healthy = await open();
    await healthy.auth(hub.keys.widget);
    await healthy.subscribe(['orders']);
    const dead = await open({ autoPong: false });
    await dead.auth(hub.keys.widget);
    await dead.subscribe(['orders']);
    const { code } = await dead.closed;
    expect(code).toBe(1006); // terminated, no close handshake
    // the healthy screen is still served: a heartbeat after the drop, then a change
    const seen = healthy.messages.length;
    await new Promise<void>((resolve) => {
      const check = () => (healthy.messages.slice(seen).some((m) => m.type === 'heartbeat') ? resolve() : setImmediate(check));
      healthy.ws.on('message', check);
    });
    const beat = healthy.messages.slice(seen).find((m) => m.type === 'heartbeat');
    expect(beat.seq).toBe(rt().positionOf(hub.restaurant.id));
    const { order } = await placeOrder(hub.server.services, actor(), { lines: [{ station: 'bar' }] });
    expect((await healthy.next()).data.id).toBe(order.id);
  });
});

describe.each(DIALECTS)('realtime slow clients on %s', (dialect) => {
  let hub: TestHub;
  let fast: TestSocket | undefined;
  const actor = () => actorFor(hub.server.services, hub.restaurant.id);
  const rt = () => hub.server.services.realtime!.hub;

  beforeAll(async () => {
    // heartbeats out of the way: only the backlog may cut the stuck screen off
    hub = await startHub(dialect, { config: { realtime: { heartbeatMs: 3_600_000, maxBufferedBytes: 256 * 1024 } } });
  });
  afterAll(async () => {
    fast?.ws.terminate();
    await hub?.close();
  });

  it('cuts off a client that stops reading, without holding back the others', async () => {
    fast = await TestSocket.open(hub.url);
    await fast.auth(hub.keys.widget);
    await fast.subscribe(['orders']);
    const stuck = await stuckSubscriber(hub.url, hub.keys.widget, ['orders']);
    expect(rt().clients.size).toBe(2);

    const ids: string[] = [];
    const bulky = 'x'.repeat(32 * 1024);
    while (rt().clients.size === 2 && ids.length < 2000) {
      ids.push((await placeOrder(hub.server.services, actor(), { lines: [{ station: 'bar' }], notes: bulky })).order.id);
      // SQLite answers without going through I/O: let the sockets breathe as real requests would
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(rt().clients.size).toBe(1);
    stuck.destroy();
    const last = await placeOrder(hub.server.services, actor(), { lines: [{ station: 'bar' }] });
    const received: string[] = [];
    for (;;) {
      const m = await fast.next();
      received.push(m.data.id);
      if (m.data.id === last.order.id) break;
    }
    expect(received).toEqual([...ids, last.order.id]);
  });
});

describe.each(DIALECTS)('realtime shutdown on %s', (dialect) => {
  it('closing the server says goodbye to every screen (1001) and does not hang on them', async () => {
    const hub = await startHub(dialect);
    const s = await TestSocket.open(hub.url);
    await s.auth(hub.keys.widget);
    await s.subscribe(['orders']);
    const stuck = await stuckSubscriber(hub.url, hub.keys.widget, ['orders']);
    await hub.close();
    expect((await s.closed).code).toBe(1001);
    expect(hub.server.services.realtime!.hub.clients.size).toBe(0);
    stuck.destroy();
  });
});
