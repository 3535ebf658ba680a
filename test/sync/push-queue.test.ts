import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readLog } from '../../sync/changes.ts';
import { currentEpoch } from '../../sync/epoch.ts';
import { callCloud, credentialOf, hello, PUSH_BATCH, pushPage, readLink, Refused, syncUntilIdle } from '../../sync/hub.ts';
import { PROTOCOL_VERSION } from '../../sync/protocol.ts';
import { until } from '../helpers/until.ts';
import { goOffline, logEntries, startPair, writeTables, type Pair } from './helpers.ts';

/**
 * The hub sends the next page of a backlog before the cloud answered the one before it; the
 * cloud holds a page that arrives before its predecessor (`wait_ms`) instead of refusing it as
 * a gap. Exactly once and in order still hold, and both sides work with a side from before.
 */
describe('pushes overlapped', () => {
  let p: Pair | undefined;
  let proxy: Proxy | undefined;
  afterEach(async () => {
    await proxy?.close();
    await p?.close();
    p = proxy = undefined;
  });

  /** A linked pair whose hub then wrote `total` new entries offline, its line through a proxy. */
  async function backlog(total: number, opts: ProxyOpts = {}) {
    let target = '';
    proxy = await startProxy(() => target, opts);
    const pair = (p = await startPair({ cloudUrlFor: (url) => ((target = url), proxy!.url) }));
    await pair.link();
    await goOffline(pair.hub);
    const hub = pair.hub.server.services;
    const restaurantId = pair.hub.restaurant.id;
    await writeTables(pair.hub, total);
    const epoch = await currentEpoch(hub.db);
    const cloud = pair.cloud.server.services;
    const ids = async (db: typeof hub.db) => (await db.selectFrom('change_log').select('op_id').where('origin', '=', epoch).orderBy('seq').execute()).map((e) => e.op_id);
    const cursor = async () => Number((await cloud.db.selectFrom('sync_hubs').select('cursor').where('restaurant_id', '=', restaurantId).executeTakeFirstOrThrow()).cursor);
    /** every entry of the hub once on the cloud, in the hub's order, and every new table there */
    const whole = async () => {
      expect(await ids(cloud.db)).toEqual(await ids(hub.db));
      const tables = await cloud.db.selectFrom('tables').select('id').where('restaurant_id', '=', restaurantId).where('zone', '=', 'Terrace').execute();
      expect(tables).toHaveLength(total);
    };
    return { pair, hub, cloud, epoch, cursor, whole };
  }

  it('a page that reaches the cloud before the one before it waits for it; both are applied once, in order', async () => {
    const { hub, cloud, epoch, cursor, whole } = await backlog(PUSH_BATCH + 500);
    const link = (await readLink(hub.db))!;
    const first = await readLog(hub.db, { restaurantId: link.restaurant_id, after: Number(link.push_cursor), origin: epoch, limit: PUSH_BATCH });
    const second = await readLog(hub.db, { restaurantId: link.restaurant_id, after: first.last, origin: epoch, limit: PUSH_BATCH });
    const push = (page: typeof first, after: number, extra: object = {}) =>
      callCloud<{ cursor: number }>(link.cloud_url, '/push', { protocol: PROTOCOL_VERSION, epoch, after, changes: page.changes, ...extra }, { credential: credentialOf(hub, link) });

    // without `wait_ms` (a hub from before), a page beyond the cloud's cursor is refused at once, as always
    const held = await logEntries(cloud.db);
    const refused = await push(second, first.last).catch((e) => e);
    expect(refused).toBeInstanceOf(Refused);
    expect([refused.status, refused.code, refused.param]).toEqual([409, 'sync_cursor_mismatch', 'gap']);
    expect(await logEntries(cloud.db)).toBe(held);

    // with it, the second page goes first and waits; the first follows
    // a held page listens for its restaurant's commits (countCommits): that listener is the
    // sign it reached the cloud, was found early and waits, rather than a pause guessing it
    const listening = vi.spyOn(cloud.tx, 'onCommit');
    const early = push(second, first.last, { wait_ms: 10_000 });
    await until('the early page held on the cloud, waiting for its predecessor', () => listening.mock.calls.length > 0, { diagnose: () => ({ pushes: proxy!.pushes, gaps: proxy!.gaps }) });
    listening.mockRestore();
    expect(await cursor()).toBe(Number(link.push_cursor));
    const answers = await Promise.all([push(first, Number(link.push_cursor)), early]);
    expect(answers.map((a) => a.cursor)).toEqual([first.last, second.last]);
    await whole();

    // sent again, each is acknowledged and changes nothing
    const now = await logEntries(cloud.db);
    expect((await push(second, first.last, { wait_ms: 10_000 })).cursor).toBe(second.last);
    expect(await logEntries(cloud.db)).toBe(now);
  });

  it('the hub sends the next page before the answer, the cloud applies it without being asked again, and the next push takes its answer', async () => {
    const { hub, cloud, cursor, whole } = await backlog(2 * PUSH_BATCH + PUSH_BATCH / 4);
    await hello(hub); // the cloud says it holds early pages
    proxy!.reset();
    const start = Number((await readLink(hub.db))!.push_cursor);
    const first = await pushPage(hub, (await readLink(hub.db))!, {}, { overlap: true });
    expect(first.changes).toHaveLength(PUSH_BATCH);
    // nobody asks again, yet the second page arrives: it went out before the first was answered
    await until('the second page of the push reached the cloud', async () => (await cursor()) >= start + 2 * PUSH_BATCH);
    expect(proxy!.maxPushesInFlight).toBe(2);
    const held = await logEntries(cloud.db);
    const second = await pushPage(hub, (await readLink(hub.db))!, {}, { overlap: true });
    expect(second.changes).toHaveLength(PUSH_BATCH);
    expect(Number((await readLink(hub.db))!.push_cursor)).toBe(second.last);
    const third = await pushPage(hub, (await readLink(hub.db))!, {}, { overlap: true });
    expect([third.changes.length, third.more]).toEqual([PUSH_BATCH / 4, false]);
    expect(await logEntries(cloud.db)).toBe(held + PUSH_BATCH / 4);
    // each answer was taken, none asked for again: three pages, three pushes
    expect(proxy!.pushes).toBe(3);
    await whole();
  });

  it('a cloud from before (no `queue_ms`) gets one page at a time', async () => {
    const { hub, whole } = await backlog(2 * PUSH_BATCH + PUSH_BATCH / 4, { oldCloud: true });
    proxy!.reset();
    await syncUntilIdle(hub);
    await whole();
    expect(proxy!.pushes).toBe(3);
    expect(proxy!.maxPushesInFlight).toBe(1);
  });

  it('an early page that reaches a process from before (behind the balancer) is refused as a gap and sent again in turn, without a new hello', async () => {
    // hello from a new process; pushes to an old one, which strips `wait_ms`; the first push is held on the way until the second has its answer
    const { hub, whole } = await backlog(2 * PUSH_BATCH + PUSH_BATCH / 4, { oldPushes: true, holdFirstPush: true });
    proxy!.reset();
    await syncUntilIdle(hub);
    await whole();
    expect(proxy!.gaps).toBeGreaterThanOrEqual(1);
    expect(proxy!.hellos).toBe(1);
  });
});

interface ProxyOpts {
  /** answers without `queue_ms`, as a cloud from before */
  oldCloud?: boolean;
  /** pushes lose `wait_ms` on the way, as to a process from before */
  oldPushes?: boolean;
  /** the first push after reset() is passed on only once the second has its answer */
  holdFirstPush?: boolean;
}

interface Proxy {
  url: string;
  pushes: number;
  hellos: number;
  gaps: number;
  maxPushesInFlight: number;
  reset(): void;
  close(): Promise<void>;
}

/** Passes the hub's requests on to the cloud, counting them, and plays a side from before where asked. */
async function startProxy(target: () => string, opts: ProxyOpts): Promise<Proxy> {
  let inFlight = 0;
  // armed by reset(): the link's own pushes go straight through
  let held = true;
  let secondAnswered = () => {};
  let second = new Promise<void>((r) => (secondAnswered = r));
  const state: Proxy = {
    url: '',
    pushes: 0,
    hellos: 0,
    gaps: 0,
    maxPushesInFlight: 0,
    reset() {
      state.pushes = state.hellos = state.gaps = state.maxPushesInFlight = 0;
      held = false;
      second = new Promise<void>((r) => (secondAnswered = r));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const json = (buf: Buffer, gz: boolean) => JSON.parse((gz ? gunzipSync(buf) : buf).toString('utf8'));
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let body = Buffer.concat(chunks);
    const push = req.url === '/sync/v1/push';
    if (req.url === '/sync/v1/hello') state.hellos++;
    const nth = push ? ++state.pushes : 0;
    if (push) {
      state.maxPushesInFlight = Math.max(state.maxPushesInFlight, ++inFlight);
      if (opts.oldPushes) {
        const b = json(body, true);
        delete b.wait_ms;
        body = gzipSync(Buffer.from(JSON.stringify(b)));
      }
      if (opts.holdFirstPush && !held) {
        held = true;
        await Promise.race([second, new Promise((r) => setTimeout(r, 20_000))]);
      }
    }
    const up = http.request(new URL(req.url!, target()), { method: req.method, headers: { ...req.headers, host: new URL(target()).host, 'content-length': String(body.length) } }, async (answer) => {
      const parts: Buffer[] = [];
      for await (const c of answer) parts.push(c as Buffer);
      let out = Buffer.concat(parts);
      const gz = answer.headers['content-encoding'] === 'gzip';
      const parsed = out.length > 0 ? json(out, gz) : null;
      if (push && parsed?.error?.param === 'gap') state.gaps++;
      if (opts.oldCloud && parsed && 'queue_ms' in parsed) {
        delete parsed.queue_ms;
        const text = Buffer.from(JSON.stringify(parsed));
        out = gz ? gzipSync(text) : text;
      }
      if (push) inFlight--;
      if (nth === 2) secondAnswered();
      const headers = { ...answer.headers };
      delete headers['content-length'];
      delete headers['transfer-encoding'];
      res.writeHead(answer.statusCode ?? 502, { ...headers, 'content-length': String(out.length) });
      res.end(out);
    });
    up.on('error', () => res.destroy());
    up.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}
