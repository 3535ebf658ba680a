import { afterEach, describe, expect, it } from 'vitest';
import { compactLog } from '../../sync/compact.ts';
import { SYNC_JOBS } from '../../sync/feature.ts';
import { seedMenu } from '../orders/fixtures.ts';
import { TestSocket } from '../realtime/socket.ts';
import { converged, goOffline, goOnline, startPair, type Pair } from './helpers.ts';

const DAY = 24 * 3600 * 1000;

describe('cloud sync: the change log is compacted once both sides hold it', () => {
  let p: Pair | undefined;
  const sockets: TestSocket[] = [];
  afterEach(async () => {
    for (const s of sockets.splice(0)) s.ws.terminate();
    await p?.close();
    p = undefined;
  });

  it('keeps one entry per row, the true field clocks, and sends screens from before it a resync', async () => {
    const pair = (p = await startPair());
    const menu = await seedMenu(pair.hub);
    await pair.link();
    const screen = await TestSocket.open(pair.hub.url);
    sockets.push(screen);
    await screen.auth(pair.hub.keys.widget);
    const [ack] = await screen.subscribe(['orders']);
    await screen.close();
    // a long evening on one item: many changes of the same row, both sides
    for (let i = 0; i < 5; i++) {
      pair.hub.clock.advance(1000);
      await pair.hub.api.patch(`/v1/menu_items/${menu.pasta}`, { description: `hub ${i}` });
    }
    pair.cloud.clock.advance(10_000);
    await pair.cloudApi.patch(`/v1/menu_items/${menu.pasta}`, { price: 1700 });
    expect((await converged(pair)).ok).toBe(true);
    // a hub change after everything pulled: the cloud's acknowledgement now covers it all
    await pair.hub.api.post('/v1/orders', { type: 'takeout', items: [{ menu_item: menu.water, quantity: 1 }] });
    expect((await converged(pair)).ok).toBe(true);

    const entriesOf = (which: Pair['hub'], id: string) =>
      which.server.services.db.selectFrom('change_log').select('seq').where('row_id', '=', id).execute();
    expect((await entriesOf(pair.hub, menu.pasta)).length).toBeGreaterThan(5);
    // nothing younger than a day is compacted
    expect((await compactLog(pair.hub.server.services.db, { nowMs: Date.now() })).removed).toBe(0);
    const hubRemoved = (await compactLog(pair.hub.server.services.db, { nowMs: Date.now() + 2 * DAY })).removed;
    const cloudRemoved = (await compactLog(pair.cloud.server.services.db, { nowMs: Date.now() + 2 * DAY })).removed;
    expect(hubRemoved).toBeGreaterThan(5);
    expect(cloudRemoved).toBeGreaterThan(5);
    expect((await entriesOf(pair.hub, menu.pasta)).length).toBe(1);
    expect((await entriesOf(pair.cloud, menu.pasta)).length).toBe(1);
    const kept = await pair.hub.server.services.db.selectFrom('sync_row_clocks').select('clocks').where('row_id', '=', menu.pasta).executeTakeFirstOrThrow();
    expect(Object.keys(JSON.parse(kept.clocks))).toContain('description');
    // the nightly job is the same function
    await pair.hub.server.scheduler.runNow(SYNC_JOBS.compact);

    // a screen resuming from before the compacted position reloads instead of missing changes
    const back = await TestSocket.open(pair.hub.url);
    sockets.push(back);
    await back.auth(pair.hub.keys.widget);
    const got = await back.subscribe(['orders'], ack.seq);
    expect(got.map((m: any) => m.type)).toEqual(['resync', 'subscribed']);
    expect(got[0].data.reason).toBe('pruned');

    // merges after compaction go on from the clocks it kept
    await goOffline(pair.hub);
    pair.cloud.clock.advance(60_000);
    await pair.cloudApi.patch(`/v1/menu_items/${menu.pasta}`, { description: 'cloud, later' });
    goOnline(pair.hub);
    const { ok, report } = await converged(pair);
    expect(report?.differences).toEqual([]);
    expect(ok).toBe(true);
    expect((await pair.hub.api.get(`/v1/menu_items/${menu.pasta}`)).body).toMatchObject({ description: 'cloud, later', price: 1700 });
  });
});
