import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock.ts';
import { MAX_AHEAD_MS, parseHlc } from '../../server/db/hlc.ts';
import { applyChanges } from '../../sync/apply.ts';
import { readLog } from '../../sync/changes.ts';
import { credentialOf, readLink } from '../../sync/hub.ts';
import { PROTOCOL_VERSION } from '../../sync/protocol.ts';
import { seedMenu } from '../orders/fixtures.ts';
import { Receiver } from '../webhooks/helpers.ts';
import { startSecondServer } from '../helpers/server.ts';
import { until } from '../helpers/until.ts';
import { converged, goOffline, goOnline, startPair, type Pair, logEntries } from './helpers.ts';

const cloudHead = (p: Pair) => logEntries(p.cloud.server.services.db);

describe('cloud sync: replays, clocks, restores and webhooks', () => {
  let p: Pair | undefined;
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c();
    await p?.close();
    p = undefined;
  });

  it('a duplicated, reordered or half-failing batch changes nothing; the hub then resumes where the cloud stands', async () => {
    const pair = (p = await startPair());
    const menu = await seedMenu(pair.hub);
    await pair.link();
    await goOffline(pair.hub);
    for (const name of ['A', 'B', 'C', 'D']) await pair.hub.api.patch(`/v1/menu_items/${menu.water}`, { name: `Water ${name}` });
    const link = (await readLink(pair.hub.server.services.db))!;
    const epoch = (await pair.hub.server.services.db.selectFrom('node_state').select('origin').executeTakeFirstOrThrow()).origin;
    const all = await readLog(pair.hub.server.services.db, { restaurantId: link.restaurant_id, after: Number(link.push_cursor), origin: epoch });
    expect(all.changes.length).toBe(4);
    const after = Number(link.push_cursor);
    const [first, second] = [all.changes.slice(0, 2), all.changes.slice(2)];
    const push = async (changes: typeof all.changes, from: number) => {
      const res = await fetch(`${pair.cloud.url}/sync/v1/push`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${credentialOf(pair.hub.server.services, link)}` },
        body: JSON.stringify({ protocol: PROTOCOL_VERSION, epoch, after: from, changes }),
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    const before = await cloudHead(pair);
    // the second batch before the first: refused, nothing applied
    const early = await push(second, first[1].origin_seq);
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe('sync_cursor_mismatch');
    expect(await cloudHead(pair)).toBe(before);
    // a batch that fails half way (the database refuses its second change) applies nothing
    const broken = [first[0], { ...first[1], data: { ...first[1].data, name: null } }];
    expect((await push(broken, after)).status).toBeGreaterThanOrEqual(400);
    expect(await cloudHead(pair)).toBe(before);
    expect((await pair.cloudApi.get(`/v1/menu_items/${menu.water}`)).body.name).toBe('Water');
    // in order: applied once; the same batch again is acknowledged and changes nothing
    expect((await push(first, after)).status).toBe(200);
    const once = await cloudHead(pair);
    expect(once).toBe(before + 2);
    const again = await push(first, after);
    expect(again.status).toBe(200);
    expect(again.body.cursor).toBe(first[1].origin_seq);
    expect(await cloudHead(pair)).toBe(once);
    expect((await pair.cloudApi.get(`/v1/menu_items/${menu.water}`)).body.name).toBe('Water B');
    // a pulled page applied twice on the hub (a duplicated answer) changes nothing either
    const theirs = (await readLog(pair.cloud.server.services.db, { restaurantId: link.restaurant_id, after: 0, notOrigin: epoch })).changes;
    const hubHead = () => logEntries(pair.hub.server.services.db);
    const h0 = await hubHead();
    const ctx = { restaurantId: link.restaurant_id, role: 'hub' as const, now: pair.hub.clock.now(), hooks: pair.hub.server.services.registry.hooks };
    await pair.hub.server.services.tx.run((trx) => applyChanges(trx, ctx, theirs));
    const h1 = await hubHead();
    await pair.hub.server.services.tx.run((trx) => applyChanges(trx, ctx, theirs));
    expect(await hubHead()).toBe(h1);
    expect(h1).toBeGreaterThanOrEqual(h0);

    // the hub's own client catches up from where the cloud stands: C and D, once
    goOnline(pair.hub);
    const { ok, report } = await converged(pair);
    expect(report?.differences).toEqual([]);
    expect(ok).toBe(true);
    expect((await pair.cloudApi.get(`/v1/menu_items/${menu.water}`)).body.name).toBe('Water D');
    expect(await cloudHead(pair)).toBe(once + 2);
  });

  it('a hub whose clock runs 10 minutes fast follows the cloud’s time once linked: a later edit on the cloud still wins', async () => {
    const hubClock = new ManualClock(Date.UTC(2026, 10, 2, 12, 10, 0));
    const pair = (p = await startPair({ hubClock }));
    const menu = await seedMenu(pair.hub);
    await pair.link();
    const link = (await readLink(pair.hub.server.services.db))!;
    expect(Math.round(Number(link.clock_offset_ms) / 60_000)).toBe(-10);
    await goOffline(pair.hub);
    hubClock.advance(1000);
    pair.cloud.clock.advance(1000);
    expect((await pair.hub.api.patch(`/v1/menu_items/${menu.pasta}`, { name: 'Hub at 12:00:01' })).status).toBe(200);
    pair.cloud.clock.advance(60_000);
    expect((await pair.cloudApi.patch(`/v1/menu_items/${menu.pasta}`, { name: 'Cloud at 12:01:01' })).status).toBe(200);
    goOnline(pair.hub);
    const { ok } = await converged(pair);
    expect(ok).toBe(true);
    expect((await pair.hub.api.get(`/v1/menu_items/${menu.pasta}`)).body.name).toBe('Cloud at 12:01:01');
    // no stamp the cloud holds is further ahead of its clock than the bound
    const stamps = await pair.cloud.server.services.db.selectFrom('change_log').select('hlc').where('restaurant_id', '=', pair.hub.restaurant.id).execute();
    const newest = Math.max(...stamps.map((s) => (s.hlc ? parseHlc(s.hlc).ms : 0)));
    expect(newest).toBeLessThanOrEqual(pair.cloud.clock.now() + MAX_AHEAD_MS);
  });

  it('a hub restored from an old backup is detected and re-synced: nothing lost, nothing twice', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-restore-'));
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const pair = (p = await startPair({ hubDataDir: dataDir }));
    const menu = await seedMenu(pair.hub);
    await pair.link();
    const backup = path.join(dataDir, 'backup.sqlite');
    await sql`vacuum into ${backup}`.execute(pair.hub.server.services.db);
    // after the backup: an order that reaches the cloud, then the PC dies
    const lost = (await pair.hub.api.post('/v1/orders', { type: 'takeout', customer_name: 'After backup', items: [{ menu_item: menu.pasta, quantity: 1 }] })).body;
    await until('the order reached the cloud', async () => (await pair.cloudApi.get(`/v1/orders/${lost.id}`)).status === 200);
    await pair.hub.close();
    for (const f of ['comanda.sqlite', 'comanda.sqlite-wal', 'comanda.sqlite-shm']) fs.rmSync(path.join(dataDir, f), { force: true });
    fs.copyFileSync(backup, path.join(dataDir, 'comanda.sqlite'));
    // the restored hub serves again and takes an order before it reaches the cloud
    const restored = await startSecondServer(pair.hub, dataDir);
    pair.hub = { ...pair.hub, server: restored.server, api: restored.api, close: () => restored.server.close() };
    const fresh = (await restored.api.post('/v1/orders', { type: 'takeout', customer_name: 'After restore', items: [{ menu_item: menu.steak, quantity: 1, modifiers: ['Rare'] }] })).body;
    const { ok, report } = await converged(pair, 30_000);
    expect(report?.differences).toEqual([]);
    expect(ok).toBe(true);
    for (const api of [restored.api, pair.cloudApi]) {
      expect((await api.get(`/v1/orders/${lost.id}`)).status).toBe(200);
      expect((await api.get(`/v1/orders/${fresh.id}`)).status).toBe(200);
      const numbers = (await api.get('/v1/orders?limit=100')).body.data.map((o: any) => o.order_number);
      expect(new Set(numbers).size).toBe(numbers.length);
    }
  }, 90_000); // 90 s: hub and cloud (processes or a pair), the line cut and restored: several sync rounds

  it('webhooks go out once, from the cloud: events the hub made offline and the cloud’s own', async () => {
    const rcv = await Receiver.start();
    cleanups.push(() => rcv.close());
    const pair = (p = await startPair());
    const menu = await seedMenu(pair.hub);
    await pair.link();
    const ep = await pair.hub.api.post('/v1/webhook_endpoints', { url: rcv.url, enabled_events: ['order.created'] });
    expect(ep.status, JSON.stringify(ep.body)).toBe(201);
    await until('the endpoint reached the cloud', async () => (await pair.cloudApi.get(`/v1/webhook_endpoints/${ep.body.id}`)).status === 200);
    await goOffline(pair.hub);
    const made: string[] = [];
    for (let i = 0; i < 3; i++) made.push((await pair.hub.api.post('/v1/orders', { type: 'takeout', items: [{ menu_item: menu.water, quantity: 1 }] })).body.id);
    for (let i = 0; i < 2; i++) made.push((await pair.cloudApi.post('/v1/orders', { type: 'takeout', items: [{ menu_item: menu.water, quantity: 1 }] })).body.id);
    goOnline(pair.hub);
    expect((await converged(pair)).ok).toBe(true);
    const orderIds = () => rcv.received.map((r) => JSON.parse(r.body).data.object.id as string);
    await until('every order’s webhook delivered', async () => made.every((id) => orderIds().includes(id)));
    // a little longer: a second sender would show now
    await new Promise((r) => setTimeout(r, 1500));
    const ids = rcv.received.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(orderIds().sort()).toEqual([...made].sort());
    expect(await pair.hub.server.services.db.selectFrom('webhook_deliveries').select('id').execute()).toEqual([]);
  });
});
