import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flushChanges, updateRecord } from '../../server/db/records.ts';
import { seedMenu, type Menu } from '../orders/fixtures.ts';
import { TestSocket } from '../realtime/socket.ts';
import { until } from '../helpers/until.ts';
import { audit, startPair } from './helpers.ts';

/**
 * One cloud (PostgreSQL) holding two restaurants: A, linked to its hub, and B. A unit of work
 * of A that has logged a change holds A's log position; B's write must not wait for it, and
 * when A's lower position commits after B's higher one, every reader that follows the log
 * (the live feed, A's pull) still hands out each entry exactly once.
 */
describe('cloud log positions: restaurants never wait on each other', () => {
  let p: Awaited<ReturnType<typeof startPair>>;
  let A: string;
  let B: string;
  let menuB: Menu;
  let orderA: string;
  const sockets: TestSocket[] = [];
  const cloudDb = () => p.cloud.server.services.db;
  const entryOf = (rowId: string, op: 'insert' | 'update') =>
    cloudDb().selectFrom('change_log').select(['seq', 'op_id']).where('row_id', '=', rowId).where('op', '=', op).orderBy('seq', 'desc').executeTakeFirstOrThrow();
  const screen = async (key: string) => {
    const s = await TestSocket.open(p.cloud.url);
    sockets.push(s);
    expect((await s.auth(key)).type).toBe('authenticated');
    expect((await s.subscribe(['orders'])).at(-1).type).toBe('subscribed');
    return s;
  };
  /** A's order notes, changed through the write path in a unit of its own */
  const noteA = (notes: string) => p.cloud.server.services.tx.run((trx) => updateRecord(trx, 'orders', { id: orderA, restaurant_id: A }, { notes }));

  beforeAll(async () => {
    p = await startPair();
    A = p.hub.restaurant.id;
    B = p.cloud.restaurant.id;
    const menuA = await seedMenu(p.hub);
    const order = await p.hub.api.post('/v1/orders', { type: 'takeout', customer_name: 'Ada', items: [{ menu_item: menuA.pasta, quantity: 1 }] });
    expect(order.status).toBe(201);
    orderA = order.body.id;
    await p.link();
    menuB = await seedMenu(p.cloud, p.cloud.api, B);
  });
  afterAll(async () => {
    for (const s of sockets) s.ws.terminate();
    await p?.close();
  });

  it('B writes while A holds its position; A’s lower position, committed last, reaches its screen and its hub once', async () => {
    const screenA = await screen(p.hub.keys.secret);
    const screenB = await screen(p.cloud.keys.secret);

    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let logged!: () => void;
    const lockHeld = new Promise<void>((r) => (logged = r));
    let open = true;
    const holding = p.cloud.server.services.tx
      .run(async (trx) => {
        await updateRecord(trx, 'orders', { id: orderA, restaurant_id: A }, { notes: 'late' });
        // the change is logged now: A's position (and whatever orders it) is taken and held
        await flushChanges(trx);
        logged();
        // held until B's write is through; the bound only turns a wait into a failure below
        await Promise.race([gate, new Promise((r) => setTimeout(r, 15_000))]);
      })
      .finally(() => (open = false));
    await lockHeld;

    const b = await p.cloud.api.post('/v1/orders', { type: 'dine_in', table: menuB.table, items: [{ menu_item: menuB.pasta, quantity: 1 }] });
    expect(b.status).toBe(201);
    // B committed while A's unit still held its log position
    expect(open).toBe(true);
    const seen = await screenB.next();
    expect(seen).toMatchObject({ type: 'order', data: { id: b.body.id } });

    release();
    await holding;
    const late = await entryOf(orderA, 'update');
    const bEntry = await entryOf(b.body.id, 'insert');
    // A's entry holds the lower position and committed after B's: out of seq order
    expect(Number(late.seq)).toBeLessThan(Number(bEntry.seq));

    // A's screen gets the late change once, then the next one, nothing repeated
    const first = await screenA.next();
    expect(first).toMatchObject({ type: 'order', seq: Number(late.seq), data: { id: orderA, notes: 'late' } });
    await noteA('after');
    const second = await screenA.next();
    expect(second).toMatchObject({ type: 'order', data: { id: orderA, notes: 'after' } });
    expect(second.seq).toBeGreaterThan(Number(bEntry.seq));
    // B's screen saw nothing of A
    expect(screenB.messages.filter((m) => m.type === 'order').map((m) => m.data.id)).toEqual([b.body.id]);

    // A's hub pulled both changes, each once, and holds what the cloud holds
    const hubDb = p.hub.server.services.db;
    await until('the later edit reached the hub', async () => (await hubDb.selectFrom('orders').select('notes').where('id', '=', orderA).executeTakeFirst())?.notes === 'after', 20_000);
    const after = await entryOf(orderA, 'update');
    for (const opId of [late.op_id, after.op_id]) {
      const n = await hubDb.selectFrom('change_log').select((eb) => eb.fn.countAll().as('n')).where('op_id', '=', opId).executeTakeFirstOrThrow();
      expect(Number(n.n)).toBe(1);
    }
    expect((await audit(p.hub)).in_sync).toBe(true);
  });

  it('a screen of A resuming from before a late change replays it, up to A’s own position', async () => {
    const before = Number((await entryOf(orderA, 'update')).seq);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let logged!: () => void;
    const lockHeld = new Promise<void>((r) => (logged = r));
    const holding = p.cloud.server.services.tx.run(async (trx) => {
      await updateRecord(trx, 'orders', { id: orderA, restaurant_id: A }, { notes: 'held' });
      await flushChanges(trx);
      logged();
      await Promise.race([gate, new Promise((r) => setTimeout(r, 15_000))]);
    });
    await lockHeld;
    expect((await p.cloud.api.post('/v1/orders', { type: 'dine_in', table: menuB.table, items: [{ menu_item: menuB.pasta, quantity: 1 }] })).status).toBe(201);
    release();
    await holding;
    await noteA('last');
    const back = await TestSocket.open(p.cloud.url);
    sockets.push(back);
    await back.auth(p.hub.keys.secret);
    const replay = await back.subscribe(['orders'], before);
    // the held change and the next one of the same order come as one run, at the last position
    const last = await entryOf(orderA, 'update');
    expect(replay.filter((m) => m.type === 'order')).toEqual([expect.objectContaining({ seq: Number(last.seq), data: expect.objectContaining({ id: orderA, notes: 'last' }) })]);
    expect(replay.at(-1)).toMatchObject({ type: 'subscribed', seq: Number(last.seq), data: { replayed: 1, resync: false } });
  });
});
