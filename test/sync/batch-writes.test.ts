import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../server/db/schema.ts';
import { Transactor } from '../../server/db/transact.ts';
import { applyChanges } from '../../sync/apply.ts';
import { readLog } from '../../sync/changes.ts';
import type { WireChange } from '../../sync/protocol.ts';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { seedMenu, type Menu } from '../orders/fixtures.ts';

/**
 * Another node's batch is applied many rows at a time: new rows of several tables and the
 * patches that follow them (an order placed, then completed with its lines) are stored as a
 * whole, each logged once under its origin, in the batch's order. On PostgreSQL, where every
 * statement is a round trip, the statements a batch takes do not grow with its size.
 */
describe.each(DIALECTS)('a batch of another node’s changes, applied at once (%s)', (dialect) => {
  let source: TestHub;
  let target: TestHub;
  let menu: Menu;
  let origin: string;

  beforeAll(async () => {
    source = await startHub('sqlite', { slug: 'the-source' });
    target = await startHub(dialect, { config: { role: 'cloud' }, slug: 'the-target' });
    menu = await seedMenu(source);
    origin = (await source.server.services.db.selectFrom('node_state').select('origin').where('id', '=', 1).executeTakeFirstOrThrow()).origin;
  });
  afterAll(async () => {
    await source?.close();
    await target?.close();
  });

  /** `n` orders of two lines on the source, each placed and then completed: its log entries after `after`. */
  const service = async (n: number, after: number) => {
    for (let i = 0; i < n; i++) {
      const o = await source.api.post('/v1/orders', {
        type: 'takeout',
        customer_name: `Guest ${after}-${i}`,
        items: [
          { menu_item: menu.pasta, quantity: 1 },
          { menu_item: menu.water, quantity: 2 },
        ],
      });
      expect(o.status).toBe(201);
      expect((await source.api.patch(`/v1/orders/${o.body.id}`, { status: 'completed' })).status).toBe(200);
    }
    const page = await readLog(source.server.services.db, { restaurantId: source.restaurant.id, after, origin, limit: 5000 });
    expect(page.more).toBe(false);
    return page;
  };

  /** Applies a batch on the target through sync's path; the statements it took. */
  const apply = async (changes: WireChange[]) => {
    let statements = 0;
    const counted = target.server.services.db.withPlugin({
      transformQuery: (a) => (statements++, a.node),
      transformResult: async (a) => a.result,
    }) as Kysely<DB>;
    const r = await new Transactor(counted).run((trx) => applyChanges(trx, { restaurantId: source.restaurant.id, role: 'cloud', now: Date.now(), hooks: target.server.services.registry.hooks }, changes));
    return { ...r, statements };
  };

  it('stores every row and patch, logs each once under its origin in the batch’s order, adds up the roll-ups; on PostgreSQL in as many statements for 40 orders as for 10', async () => {
    // the menu, the restaurant and the first orders; then a batch four times as big
    const first = await service(10, 0);
    const second = await service(40, first.last);
    const a = await apply(first.changes);
    const b = await apply(second.changes);
    expect(a.applied).toBe(first.changes.length);
    expect(b.applied).toBe(second.changes.length);

    const db = target.server.services.db;
    const orders = await db.selectFrom('orders').select(['id', 'status']).where('restaurant_id', '=', source.restaurant.id).execute();
    expect(orders).toHaveLength(50);
    expect(orders.every((o) => o.status === 'completed')).toBe(true);
    const theirs = await source.server.services.db.selectFrom('order_items').select(['id', 'status', 'ready_at']).where('restaurant_id', '=', source.restaurant.id).orderBy('id').execute();
    const ours = await db.selectFrom('order_items').select(['id', 'status', 'ready_at']).where('restaurant_id', '=', source.restaurant.id).orderBy('id').execute();
    expect(ours.map((r) => ({ ...r, ready_at: r.ready_at === null ? null : Number(r.ready_at) }))).toEqual(
      theirs.map((r) => ({ ...r, ready_at: r.ready_at === null ? null : Number(r.ready_at) })),
    );

    // each change once, under its origin, in the batch's order, carrying the row as it left it
    const sent = [...first.changes, ...second.changes];
    const logged = await db
      .selectFrom('change_log')
      .select(['op_id', 'origin', 'origin_seq', 'op', 'data', 'hlc'])
      .where('origin', '=', origin)
      .orderBy('seq')
      .execute();
    expect(logged.map((e) => e.op_id)).toEqual(sent.map((c) => c.op_id));
    expect(logged.map((e) => [e.origin_seq, e.op, e.hlc])).toEqual(sent.map((c) => [c.origin_seq, c.op, c.hlc]));
    const completed = sent.find((c) => c.table === 'orders' && c.op === 'update')!;
    const entry = logged.find((e) => e.op_id === completed.op_id)!;
    expect(JSON.parse(entry.data)).toMatchObject({ id: completed.row_id, status: 'completed' });

    // the roll-ups the batch's orders add up (written once for the batch) are the source's own
    const rollups = async (db: Kysely<DB>) => ({
      daily: (await db.selectFrom('analytics_daily').select(['day', 'hour', 'type', 'orders', 'revenue']).where('restaurant_id', '=', source.restaurant.id).orderBy(['day', 'hour', 'type']).execute()).map((r) => ({ ...r, revenue: Number(r.revenue) })),
      items: (await db.selectFrom('analytics_item_daily').select(['day', 'menu_item_id', 'quantity', 'revenue', 'orders']).where('restaurant_id', '=', source.restaurant.id).orderBy(['day', 'menu_item_id']).execute()).map((r) => ({ ...r, revenue: Number(r.revenue) })),
      facts: Number((await db.selectFrom('analytics_order_facts').select((eb) => eb.fn.countAll().as('n')).where('restaurant_id', '=', source.restaurant.id).executeTakeFirstOrThrow()).n),
    });
    const mine = await rollups(db);
    expect(mine.facts).toBe(50);
    expect(mine).toEqual(await rollups(source.server.services.db));

    if (dialect === 'postgres') {
      // a batch four times as big takes no more statements (both read, write and log in runs)
      expect(b.statements).toBeLessThanOrEqual(a.statements);
    }
  });
});
