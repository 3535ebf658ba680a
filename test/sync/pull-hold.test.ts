import { afterEach, describe, expect, it } from 'vitest';
import { seedMenu } from '../orders/fixtures.ts';
import { callCloud, credentialOf, readLink } from '../../sync/hub.ts';
import { currentEpoch } from '../../sync/epoch.ts';
import { PROTOCOL_VERSION } from '../../sync/protocol.ts';
import { until } from '../helpers/until.ts';
import { converged, startPairBehindProxy } from './helpers.ts';

/**
 * The hub's long poll on the cloud brings it the cloud's changes of its restaurant, never its
 * own back. Its own pushes move the restaurant's log all the same; the cloud used to answer
 * the waiting poll at each of them with an empty page, so every edit made on the hub cost a
 * second round trip and a commit on the hub, and a pull on the cloud, for nothing. The poll
 * is now held until the cloud has something for the hub (or its wait runs out).
 */
describe('cloud sync: the long poll and the hub’s own pushes', () => {
  let p: Awaited<ReturnType<typeof startPairBehindProxy>> | undefined;
  afterEach(async () => {
    await p?.close();
    p = undefined;
  });

  it('a poll is not answered for the hub’s own pushes, and is answered by the cloud’s change', { timeout: 120_000 }, async () => { // 120 s: hub and cloud (processes or a pair), the line cut and restored: several sync rounds
    const pair = (p = await startPairBehindProxy());
    const { proxy } = pair;
    const menu = await seedMenu(pair.hub);
    await pair.link();
    expect((await converged(pair)).ok).toBe(true);
    const priceAt = (db: typeof pair.hub.server.services.db, price: number) =>
      until(`the price ${price} reached that side`, async () => (await db.selectFrom('menu_items').select('price').where('id', '=', menu.pasta).executeTakeFirst())?.price === price, 30_000);

    const pullsBefore = proxy.requests.get('/sync/v1/pull') ?? 0;
    // six edits on the hub, each pushed and held by the cloud before the next. (An order would
    // not do: its event comes back settled by the cloud, which is a change for the hub.)
    for (let i = 1; i <= 6; i++) {
      const r = await pair.hub.api.patch(`/v1/menu_items/${menu.pasta}`, { price: 1000 + i });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      await priceAt(pair.cloud.server.services.db, 1000 + i);
    }
    // while it waits, the cloud counts the hub as holding its own entries: compaction on the
    // cloud need not wait for the poll to end to drop what they superseded
    const cloudDb = pair.cloud.server.services.db;
    const restaurant = pair.hub.restaurant.id;
    const top = Number((await cloudDb.selectFrom('change_log').select((eb) => eb.fn.max('seq').as('top')).where('restaurant_id', '=', restaurant).executeTakeFirstOrThrow()).top);
    const pulledThrough = async () => Number((await cloudDb.selectFrom('sync_hubs').select('pulled_through').where('restaurant_id', '=', restaurant).executeTakeFirstOrThrow()).pulled_through);
    await until('the cloud pulled through the hub’s last edit', async () => (await pulledThrough()) >= top, 5_000);

    // then one made on the cloud (an integration): the poll that waited through the pushes brings it
    const r = await pair.cloudApi.patch(`/v1/menu_items/${menu.pasta}`, { price: 2000 });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    await priceAt(pair.hub.server.services.db, 2000);

    // the poll after the one that answered (if it went out yet), and one more if a wait (20 s)
    // ran out meanwhile. Answered at every push, there were six more.
    const pulls = (proxy.requests.get('/sync/v1/pull') ?? 0) - pullsBefore;
    expect(pulls).toBeLessThanOrEqual(2);
    expect((await converged(pair)).ok).toBe(true);
  });

  it('a poll is answered while a push of the same hub holds the hub’s row', { timeout: 120_000 }, async () => { // 120 s: hub and cloud (processes or a pair), the line cut and restored: several sync rounds
    const pair = (p = await startPairBehindProxy());
    await seedMenu(pair.hub);
    await pair.link();
    expect((await converged(pair)).ok).toBe(true);
    const services = pair.hub.server.services;
    const link = (await readLink(services.db))!;
    const cloudDb = pair.cloud.server.services.db;
    // a push applying holds the hub's row (select … for update) until it commits. A poll
    // notes how far the hub pulled on that row: it used to queue behind the push there, silent
    // (no heartbeat had gone out yet) and holding a pooled connection.
    let answered: unknown = 'still waiting when the push committed';
    await cloudDb.transaction().execute(async (trx) => {
      await trx.selectFrom('sync_hubs').select('id').where('restaurant_id', '=', link.restaurant_id).forUpdate().execute();
      const poll = callCloud<{ changes: unknown[]; last: number }>(
        link.cloud_url,
        '/pull',
        { protocol: PROTOCOL_VERSION, epoch: await currentEpoch(services.db), after: Number(link.pull_cursor), wait_ms: 0 },
        { credential: credentialOf(services, link), timeoutMs: 20_000 },
      );
      answered = await Promise.race([poll, new Promise((r) => setTimeout(() => r('no answer within 15 s while the row was held'), 15_000))]);
    });
    expect(answered).toMatchObject({ changes: [], last: Number(link.pull_cursor) });
    expect((await converged(pair)).ok).toBe(true);
  });
});
