import { afterAll, describe, expect, it } from 'vitest';
import { currentEpoch } from '../../sync/epoch.ts';
import { PUSH_BATCH, pushPage, readLink, syncUntilIdle } from '../../sync/hub.ts';
import { goOffline, logEntries, startPair, writeTables, type Pair } from './helpers.ts';

/**
 * A backlog longer than a push (a week offline) goes up in pages of PUSH_BATCH, each next
 * page read while the cloud applies the one before. The cloud holds every entry once, in the
 * hub's order; what the hub says it still holds counts down page by page without the hub
 * counting its whole backlog on every push; a page sent again changes nothing.
 */
describe('a backlog of several pushes', () => {
  let p: Pair | undefined;
  afterAll(async () => {
    await p?.close();
  });

  it('arrives whole, once and in order, page by page; the hub’s count of what it still holds goes down with each page', async () => {
    const pair = (p = await startPair());
    await pair.link();
    await goOffline(pair.hub);
    const hub = pair.hub.server.services;
    const cloud = pair.cloud.server.services;
    const restaurantId = pair.hub.restaurant.id;
    // two and a half pushes of new tables, written offline in a few units of work
    const total = 2 * PUSH_BATCH + PUSH_BATCH / 4;
    await writeTables(pair.hub, total);
    const epoch = await currentEpoch(hub.db);
    const mine = async () => (await hub.db.selectFrom('change_log').select('op_id').where('origin', '=', epoch).orderBy('seq').execute()).map((e) => e.op_id);
    const pendingOnCloud = async () => Number((await cloud.db.selectFrom('sync_hubs').select('hub_pending').where('restaurant_id', '=', restaurantId).executeTakeFirstOrThrow()).hub_pending);

    const first = await pushPage(hub, (await readLink(hub.db))!);
    expect(first.changes).toHaveLength(PUSH_BATCH);
    expect(await pendingOnCloud()).toBe(total - PUSH_BATCH);
    const second = await pushPage(hub, (await readLink(hub.db))!);
    expect(second.changes).toHaveLength(PUSH_BATCH);
    expect(await pendingOnCloud()).toBe(total - 2 * PUSH_BATCH);

    // the second page again, as after an answer lost on the way (the cursor put back): nothing applied twice
    const held = await logEntries(cloud.db);
    await hub.db.updateTable('sync_link').set({ push_cursor: first.last }).where('id', '=', 1).execute();
    const again = await pushPage(hub, (await readLink(hub.db))!);
    expect(again.changes.map((c) => c.op_id)).toEqual(second.changes.map((c) => c.op_id));
    expect(await logEntries(cloud.db)).toBe(held);
    await syncUntilIdle(hub);
    expect(await pendingOnCloud()).toBe(0);

    const onCloud = (await cloud.db.selectFrom('change_log').select('op_id').where('origin', '=', epoch).orderBy('seq').execute()).map((e) => e.op_id);
    expect(onCloud).toEqual(await mine());
    expect(await logEntries(cloud.db)).toBe(held + PUSH_BATCH / 4);
    const tables = await cloud.db.selectFrom('tables').select('number').where('restaurant_id', '=', restaurantId).where('zone', '=', 'Terrace').execute();
    expect(tables).toHaveLength(total);
  });
});
