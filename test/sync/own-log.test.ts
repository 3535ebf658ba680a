import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateRecord } from '../../server/db/records.ts';
import { applyChanges } from '../../sync/apply.ts';
import { countLog, readLog } from '../../sync/changes.ts';
import type { WireChange } from '../../sync/protocol.ts';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { seedMenu } from '../orders/fixtures.ts';

/**
 * What a hub pushes: its own entries after a position, in log order, a page at a time, and
 * how many follow. The log has no (origin, seq) index any more (migration 2510): a node's own
 * entries have origin_seq = seq and are read by the (origin, origin_seq) unique index. Here a
 * node's own entries are interleaved with another node's, as a hub's are with what it pulled.
 */
describe.each(DIALECTS)('a node reads its own log entries to push (%s)', (dialect) => {
  let other: TestHub;
  let node: TestHub;
  let restaurantId: string;
  let origin: string;

  beforeAll(async () => {
    other = await startHub('sqlite', { slug: 'the-other' });
    node = await startHub(dialect, { config: { role: 'cloud' }, slug: 'this-node' });
    restaurantId = other.restaurant.id;
    origin = (await node.server.services.db.selectFrom('node_state').select('origin').where('id', '=', 1).executeTakeFirstOrThrow()).origin;
  });
  afterAll(async () => {
    await other?.close();
    await node?.close();
  });

  it('pages through exactly its own entries in log order, counts what follows, off the (origin, origin_seq) index', async () => {
    const menu = await seedMenu(other);
    const theirOrigin = (await other.server.services.db.selectFrom('node_state').select('origin').where('id', '=', 1).executeTakeFirstOrThrow()).origin;
    let theirs = 0;
    // the other node's changes arrive in rounds; between them this node renames the restaurant
    for (let round = 0; round < 4; round++) {
      const o = await other.api.post('/v1/orders', { type: 'takeout', customer_name: `Guest ${round}`, items: [{ menu_item: menu.pasta, quantity: 1 }] });
      expect(o.status).toBe(201);
      const page = await readLog(other.server.services.db, { restaurantId, after: theirs, origin: theirOrigin, limit: 2000 });
      theirs = page.last;
      await node.server.services.tx.run((trx) => applyChanges(trx, { restaurantId, role: 'cloud', now: Date.now(), hooks: node.server.services.registry.hooks }, page.changes as WireChange[]));
      for (let i = 0; i < 3; i++) {
        await node.server.services.tx.run((trx) => updateRecord(trx, 'restaurants', { id: restaurantId }, { name: `Renamed ${round}.${i}` }));
      }
    }
    const db = node.server.services.db;
    const all = await db.selectFrom('change_log').select(['seq', 'op_id', 'origin', 'origin_seq']).where('restaurant_id', '=', restaurantId).orderBy('seq').execute();
    const own = all.filter((e) => e.origin === origin);
    expect(own).toHaveLength(12);
    expect(all.length).toBeGreaterThan(own.length + 10);
    expect(own.every((e) => Number(e.origin_seq) === Number(e.seq))).toBe(true);

    // from every position, in pages of 5: the same entries in the same order as a plain filter of the log
    for (const from of [0, Number(own[3].seq), Number(own[3].seq) + 1, Number(own[11].seq)]) {
      const read: string[] = [];
      let after = from;
      for (;;) {
        const page = await readLog(db, { restaurantId, after, origin, limit: 5 });
        read.push(...page.changes.map((c) => c.op_id));
        if (page.changes.length) expect(page.last).toBe(page.changes.at(-1)!.origin_seq);
        after = page.last;
        if (!page.more) break;
      }
      const expected = own.filter((e) => Number(e.seq) > from).map((e) => e.op_id);
      expect(read).toEqual(expected);
      expect(await countLog(db, { restaurantId, after: from, origin })).toBe(expected.length);
    }

    const indexes =
      dialect === 'sqlite'
        ? (await sql<{ name: string }>`select name from pragma_index_list('change_log')`.execute(db)).rows.map((r) => r.name)
        : (await sql<{ name: string }>`select indexname as name from pg_indexes where tablename = 'change_log'`.execute(db)).rows.map((r) => r.name);
    expect(indexes).not.toContain('change_log_origin_pos');
    expect(indexes).toContain('change_log_row');
    if (dialect === 'sqlite') {
      // the hub's read: off the (origin, origin_seq) index, in its order, with no scan of the log and no sort
      const plan = await sql<{ detail: string }>`explain query plan
        select seq from change_log where restaurant_id = ${restaurantId} and seq > 0 and origin = ${origin} and origin_seq > 0 order by origin_seq limit 2001`.execute(db);
      const detail = plan.rows.map((r) => r.detail).join('\n');
      expect(detail).toMatch(/USING INDEX sqlite_autoindex_change_log_\d \(origin=\? AND origin_seq>\?\)/);
      expect(detail).not.toMatch(/TEMP B-TREE/);
    }
  });
});
