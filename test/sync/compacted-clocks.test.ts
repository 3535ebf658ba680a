import { afterEach, describe, expect, it } from 'vitest';
import { compactLog } from '../../sync/compact.ts';
import { pullPage, readLink } from '../../sync/hub.ts';
import { seedMenu } from '../orders/fixtures.ts';
import { converged, goOffline, startPair, type Pair } from './helpers.ts';

const DAY = 24 * 3600 * 1000;

/**
 * An entry that outlived a compaction keeps the whole row but claims only its own change's
 * columns; when the other columns were set travels with it (`clocks`), so a node that lacks
 * those writes (a hub restored from a backup older than the compaction) takes them from the
 * log alone, by their true clocks: no repair needed.
 */
describe('a compacted entry carries its row’s column clocks on the wire', () => {
  let p: Pair | undefined;
  afterEach(async () => {
    await p?.close();
    p = undefined;
  });

  it('a node missing an older rename takes it from the compacted entry of a later price change', async () => {
    const pair = (p = await startPair());
    const menu = await seedMenu(pair.hub);
    await pair.link();
    const item = () => pair.hub.server.services.db.selectFrom('menu_items').select(['name', 'price']).where('id', '=', menu.pasta).executeTakeFirstOrThrow();
    const before = await item();
    pair.hub.clock.advance(1000);
    expect((await pair.hub.api.patch(`/v1/menu_items/${menu.pasta}`, { name: 'Pasta della casa' })).status).toBe(200);
    expect((await converged(pair)).ok).toBe(true);
    pair.cloud.clock.advance(10_000);
    expect((await pair.cloudApi.patch(`/v1/menu_items/${menu.pasta}`, { price: 1700 })).status).toBe(200);
    expect((await converged(pair)).ok).toBe(true);

    // the cloud compacts: of the item's entries only the price change is left, claiming the price
    await compactLog(pair.cloud.server.services.db, { nowMs: Date.now() + 2 * DAY });
    const left = await pair.cloud.server.services.db.selectFrom('change_log').select('fields').where('row_id', '=', menu.pasta).execute();
    expect(left.map((e) => JSON.parse(e.fields!).sort())).toEqual([['price', 'updated']]);

    // the hub as a backup from before the rename and the price left it (written behind the log on purpose), and
    // with no repair running: only the log may bring the rename back
    await goOffline(pair.hub);
    const db = pair.hub.server.services.db;
    await db.updateTable('menu_items').set(before).where('id', '=', menu.pasta).execute();
    await db.deleteFrom('change_log').where('row_id', '=', menu.pasta).where('op', '=', 'update').execute();
    await db.updateTable('sync_link').set({ pull_cursor: 0, pull_op_id: null }).where('id', '=', 1).execute();
    for (;;) {
      const page = await pullPage(pair.hub.server.services, (await readLink(db))!);
      if (!page.more) break;
    }
    expect(await item()).toEqual({ name: 'Pasta della casa', price: 1700 });
  });
});
