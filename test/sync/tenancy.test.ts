import { createHash, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey, keyPrefix, makeApiKey } from '../../server/auth/keys.ts';
import { hashPassword } from '../../server/auth/passwords.ts';
import { formatHlc, nodeOf } from '../../server/db/hlc.ts';
import { credentialOf, readLink, syncUntilIdle } from '../../sync/hub.ts';
import { SYNCED_TABLES } from '../../sync/merge-rules.ts';
import { NEVER_SYNCED, WRITE_RULES } from '../../sync/write-rules.ts';
import { PROTOCOL_VERSION } from '../../sync/protocol.ts';
import { seedMenu, type Menu } from '../orders/fixtures.ts';
import { until } from '../helpers/until.ts';
import { goOffline, goOnline, sendSync as send, startPair, logEntries } from './helpers.ts';

type Row = Record<string, unknown>;

/**
 * Hub A is linked; restaurant B lives on the same cloud (PostgreSQL). Everything A sends is
 * pushed through the real HTTP route with A's credential, as A's own rows or as forgeries
 * naming B's rows; B's rows must come out of every batch exactly as they went in.
 */
describe('cloud sync: a hub writes its own restaurant only', () => {
  let p: Awaited<ReturnType<typeof startPair>>;
  let credential: string;
  let epoch: string;
  let A: string;
  let B: string;
  let menuB: Menu;
  let stamp = 0;
  const cloudDb = () => p.cloud.server.services.db as any;
  const rowOf = async (table: string, id: string): Promise<Row | undefined> => cloudDb().selectFrom(table).selectAll().where('id', '=', id).executeTakeFirst();
  const rowsOf = async (table: string, restaurant: string): Promise<Row[]> =>
    cloudDb()
      .selectFrom(table)
      .selectAll()
      .where(table === 'restaurants' ? 'id' : 'restaurant_id', '=', restaurant)
      .orderBy('id')
      .execute();
  /** Per synced table, a hash of every row of B (all columns, credentials too); and how many changes B's log holds. */
  const snapshotB = async () => {
    const out: Record<string, string | number> = {};
    for (const t of SYNCED_TABLES) out[t] = createHash('sha256').update(JSON.stringify(await rowsOf(t, B))).digest('hex').slice(0, 16);
    const log = await cloudDb().selectFrom('change_log').select((eb: any) => eb.fn.countAll().as('n')).where('restaurant_id', '=', B).executeTakeFirst();
    out.log = Number(log.n);
    return out;
  };
  const cloudHead = () => logEntries(cloudDb());

  interface Forged {
    table: string;
    row: Row;
    op?: 'insert' | 'update' | 'delete';
    fields?: string[] | null;
  }
  /** Pushes changes as hub A's next ones, stamped later than anything either side holds. */
  const push = async (changes: Forged[]) => {
    const at = (await send(p.cloud.url, '/hello', { protocol: PROTOCOL_VERSION, epoch }, credential)).body.cursor as number;
    const base = Math.max(p.cloud.clock.now(), p.hub.clock.now()) + 60_000;
    const wire = changes.map((c, i) => ({
      op_id: `op_forged${randomBytes(8).toString('hex')}`,
      origin: epoch,
      origin_seq: at + 1 + i,
      table: c.table,
      row_id: String(c.row.id),
      op: c.op ?? 'update',
      data: c.row,
      fields: c.fields === undefined ? null : c.fields,
      hlc: formatHlc(base + ++stamp, 0, nodeOf(epoch)),
    }));
    return send(p.cloud.url, '/push', { protocol: PROTOCOL_VERSION, epoch, after: at, changes: wire }, credential);
  };

  beforeAll(async () => {
    p = await startPair();
    A = p.hub.restaurant.id;
    B = p.cloud.restaurant.id;
    const menuA = await seedMenu(p.hub);
    expect((await p.hub.api.post('/v1/orders', { type: 'takeout', customer_name: 'Ada', items: [{ menu_item: menuA.pasta, quantity: 1 }] })).status).toBe(201);
    expect((await p.hub.api.post('/v1/customers', { name: 'Ada', email: 'ada@a.example' })).status).toBe(201);
    await p.link();
    credential = credentialOf(p.hub.server.services, (await readLink(p.hub.server.services.db))!);
    epoch = (await p.hub.server.services.db.selectFrom('node_state').select('origin').executeTakeFirstOrThrow()).origin;
    // the hub's own client would push beside these requests; the pushes here stand for it
    await p.hub.server.services.sync!.stop();

    menuB = await seedMenu(p.cloud, p.cloud.api, B);
    expect((await p.cloud.api.post('/v1/orders', { type: 'dine_in', table: menuB.table, items: [{ menu_item: menuB.pasta, quantity: 2 }] })).status).toBe(201);
    expect((await p.cloud.api.post('/v1/customers', { name: 'Bea', email: 'bea@b.example' })).status).toBe(201);
    const ownerB = (await rowsOf('users', B)).find((u) => u.role === 'owner')!;
    expect((await p.cloud.api.post(`/v1/staff/${ownerB.id}/password`, { password: 'the owner of b password' })).status).toBe(200);
  }, 120_000); // 120 s: hub and cloud (processes or a pair), the line cut and restored: several sync rounds
  afterAll(() => p?.close());

  /** Each attack must be refused whole (403), apply nothing, leave B as it was, and show in the cloud's status. */
  const refused = async (changes: Forged[]) => {
    const before = await snapshotB();
    const head = await cloudHead();
    const res = await push(changes);
    expect(res.status, JSON.stringify(res.body)).toBe(403);
    expect(res.body.error.code).toBe('sync_restaurant_mismatch');
    expect(await cloudHead()).toBe(head);
    expect(await snapshotB()).toEqual(before);
    expect((await p.cloudApi.get('/v1/sync/status')).body.last_error).toContain('sync_restaurant_mismatch');
  };

  it("renaming and repricing B's menu item, claiming A and leaving restaurant_id out of the fields, is refused", async () => {
    const item = (await rowOf('menu_items', menuB.pasta))!;
    await refused([{ table: 'menu_items', row: { ...item, restaurant_id: A, name: 'Hacked', price: 1 }, fields: ['name', 'price', 'updated'] }]);
    expect((await p.cloud.api.get(`/v1/menu_items/${menuB.pasta}`)).body).toMatchObject({ name: 'Carbonara', price: 1450 });
  });

  it("moving B's customer into A is refused: A's key still cannot read it", async () => {
    const bea = (await rowsOf('customers', B))[0];
    await refused([{ table: 'customers', row: { ...bea, restaurant_id: A }, fields: ['restaurant_id'] }]);
    await refused([{ table: 'customers', row: { ...bea, restaurant_id: A }, fields: null }]);
    expect((await p.cloudApi.get(`/v1/customers/${bea.id}`)).status).toBe(404);
    expect((await p.cloud.api.get(`/v1/customers/${bea.id}`)).status).toBe(200);
  });

  it("deleting B's table is refused, whatever restaurant the tombstone claims", async () => {
    const table = (await rowOf('tables', menuB.table))!;
    await refused([{ table: 'tables', row: { ...table, restaurant_id: A }, op: 'delete' }]);
    expect((await p.cloud.api.get(`/v1/tables/${menuB.table}`)).status).toBe(200);
  });

  it('removing its own restaurant is refused whole (400): the cloud still takes the hub’s orders', async () => {
    const head = await cloudHead();
    const own = (await rowsOf('restaurants', A))[0];
    const res = await push([{ table: 'restaurants', row: own, op: 'delete' }]);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'sync_batch_invalid', message: 'A batch cannot remove a restaurant.' });
    expect(await cloudHead()).toBe(head);
    expect((await rowsOf('restaurants', A))).toHaveLength(1);
    const order = (await rowsOf('orders', A))[0];
    const res2 = await push([{ table: 'orders', row: { ...order, id: `ord_forged${randomBytes(8).toString('hex')}` }, op: 'insert' }]);
    expect(res2.status, JSON.stringify(res2.body)).toBe(200);
  });

  it("replacing B's owner's password_hash with A's is refused: A's password does not sign in as B's owner", async () => {
    const ownerB = (await rowsOf('users', B)).find((u) => u.role === 'owner')!;
    const hash = await hashPassword('a password a chose');
    await refused([{ table: 'users', row: { ...ownerB, restaurant_id: A, password_hash: hash }, fields: ['password_hash'] }]);
    const login = (password: string) =>
      fetch(`${p.cloud.url}/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: ownerB.email, password }) });
    expect((await login('a password a chose')).status).toBe(401);
    expect((await login('the owner of b password')).status).toBe(200);
  });

  it("setting B's widget key hash to a key A chose is refused: the chosen key opens nothing, B's own still works", async () => {
    const widget = (await rowsOf('api_keys', B)).find((k) => k.kind === 'widget')!;
    const chosen = makeApiKey('widget', true);
    await refused([{ table: 'api_keys', row: { ...widget, restaurant_id: A, hash: hashApiKey(chosen), prefix: keyPrefix(chosen) }, fields: ['hash', 'prefix'] }]);
    expect((await p.cloud.api.withKey(chosen).get('/public/orders/active')).status).toBe(401);
    expect((await p.cloud.api.withKey(p.cloud.keys.widget).get('/public/orders/active')).status).toBe(200);
  });

  it("a row of A pointing at B's rows is refused: a line billed into B's order, an item in B's category with B's modifiers", async () => {
    const orderB = (await rowsOf('orders', B))[0];
    const lineA = (await rowsOf('order_items', A))[0];
    await refused([{ table: 'order_items', row: { ...lineA, id: 'item_forged0000000000000001', order_id: orderB.id, idx: 9 }, op: 'insert' }]);
    const itemA = (await rowsOf('menu_items', A))[0];
    await refused([{ table: 'menu_items', row: { ...itemA, category_id: (await rowOf('menu_items', menuB.pasta))!.category_id }, fields: ['category_id'] }]);
    await refused([{ table: 'menu_items', row: { ...itemA, modifier_group_ids: JSON.stringify([menuB.extras]) }, fields: ['modifier_group_ids'] }]);
    expect((await p.cloud.api.get(`/v1/orders/${orderB.id}`)).body).toMatchObject({ total: orderB.total });
  });

  it("one forged change refuses its whole batch: A's own change beside it is not applied either", async () => {
    const itemA = (await rowsOf('menu_items', A))[0];
    const itemB = (await rowOf('menu_items', menuB.water))!;
    await refused([
      { table: 'menu_items', row: { ...itemA, name: 'Renamed by A' }, fields: ['name'] },
      { table: 'menu_items', row: { ...itemB, restaurant_id: A, name: 'Hacked' }, fields: ['name'] },
    ]);
    expect((await rowOf('menu_items', String(itemA.id)))!.name).toBe(itemA.name);
  });

  it('a pull carries only the hub’s own restaurant', async () => {
    let after = 0;
    const seen: { table: string; data: Row }[] = [];
    for (;;) {
      const page = await send(p.cloud.url, '/pull', { protocol: PROTOCOL_VERSION, epoch: 'node_someone_else', after, limit: 200 }, credential);
      expect(page.status).toBe(200);
      seen.push(...page.body.changes);
      if (!page.body.more) break;
      after = page.body.last;
    }
    // B's rows are on the cloud, and many of A's (all from another origin than asked)
    expect((await rowsOf('menu_items', B)).length).toBeGreaterThan(0);
    expect(seen.length).toBeGreaterThan(10);
    for (const c of seen) expect(c.table === 'restaurants' ? c.data.id : c.data.restaurant_id).toBe(A);
  });

  it('random batches with forged ids of B’s rows never change any of B’s rows; a refused batch applies nothing', async () => {
    const ofA: Record<string, Row[]> = {};
    const ofB: Record<string, Row[]> = {};
    for (const t of SYNCED_TABLES) {
      ofA[t] = await rowsOf(t, A);
      ofB[t] = await rowsOf(t, B);
    }
    const tables = SYNCED_TABLES.filter((t) => ofA[t].length + ofB[t].length > 0);
    const spec = fc.constantFrom(...tables).chain((table) => {
      const columns = Object.keys((ofA[table][0] ?? ofB[table][0])!);
      return fc.record({
        table: fc.constant(table),
        target: fc.constantFrom('b', 'b', 'a', 'new'),
        pick: fc.nat(),
        op: fc.constantFrom('insert', 'update', 'update', 'delete'),
        claim: fc.constantFrom('a', 'a', 'b'),
        fields: fc.option(fc.subarray(columns.filter((c) => c !== 'id')), { nil: null }),
        // values taken from other rows of the table, of either restaurant: ids of B's rows among them
        copies: fc.array(fc.record({ column: fc.constantFrom(...columns.filter((c) => c !== 'id')), from: fc.nat() }), { maxLength: 4 }),
      });
    });
    const build = (s: any): Forged => {
      const all = [...ofA[s.table], ...ofB[s.table]];
      const pool = s.target === 'b' && ofB[s.table].length ? ofB[s.table] : s.target === 'a' && ofA[s.table].length ? ofA[s.table] : all;
      const base = pool[s.pick % pool.length];
      const id = s.target === 'new' ? `${String(base.id).split('_')[0]}_forged${randomBytes(8).toString('hex')}` : String(base.id);
      const row: Row = { ...base, id };
      for (const c of s.copies) row[c.column] = all[c.from % all.length][c.column];
      if (s.table === 'restaurants') row.id = s.claim === 'a' ? A : id;
      else row.restaurant_id = s.claim === 'a' ? A : B;
      return { table: s.table, row, op: s.op, fields: s.op === 'update' ? s.fields : null };
    };
    let refusedBatches = 0;
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(spec, { minLength: 1, maxLength: 5 }), async (specs) => {
        const before = await snapshotB();
        const head = await cloudHead();
        const res = await push(specs.map(build));
        expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
        if (res.status === 200) accepted++;
        else {
          refusedBatches++;
          expect(await cloudHead()).toBe(head);
        }
        expect(await snapshotB()).toEqual(before);
      }),
      { numRuns: 80 },
    );
    // the batches were not all refused for some other reason: both kinds ran
    expect(accepted).toBeGreaterThan(0);
    expect(refusedBatches).toBeGreaterThan(0);
  }, 240_000); // 240 s: hub and cloud (processes or a pair), the line cut and restored: several sync rounds
});

describe('cloud sync: credentials are the cloud’s once a row has one', () => {
  let p: Awaited<ReturnType<typeof startPair>>;
  let credential: string;
  let epoch: string;
  let stamp = 0;
  beforeAll(async () => {
    p = await startPair();
    const owner = (await p.hub.server.services.db.selectFrom('users').select('id').where('role', '=', 'owner').executeTakeFirstOrThrow()).id;
    expect((await p.hub.api.post(`/v1/staff/${owner}/password`, { password: 'the owner of a password' })).status).toBe(200);
    await p.link();
    await p.hub.server.services.sync!.stop();
    credential = credentialOf(p.hub.server.services, (await readLink(p.hub.server.services.db))!);
    epoch = (await p.hub.server.services.db.selectFrom('node_state').select('origin').executeTakeFirstOrThrow()).origin;
  }, 60_000);
  afterAll(() => p?.close());

  const pushOwn = async (changes: { table: string; row: Row; op: 'insert' | 'update'; fields: string[] | null }[]) => {
    const at = (await send(p.cloud.url, '/hello', { protocol: PROTOCOL_VERSION, epoch }, credential)).body.cursor as number;
    const base = Math.max(p.cloud.clock.now(), p.hub.clock.now()) + 60_000;
    const wire = changes.map((c, i) => ({
      op_id: `op_own${randomBytes(8).toString('hex')}`,
      origin: epoch,
      origin_seq: at + 1 + i,
      table: c.table,
      row_id: String(c.row.id),
      op: c.op,
      data: c.row,
      fields: c.fields,
      hlc: formatHlc(base + ++stamp, 0, nodeOf(epoch)),
    }));
    return send(p.cloud.url, '/push', { protocol: PROTOCOL_VERSION, epoch, after: at, changes: wire }, credential);
  };

  it('every credential column of WRITE_RULES: a hub’s new value for a row the cloud has is not applied, the rest of its change is', async () => {
    const db = p.cloud.server.services.db as any;
    const A = p.hub.restaurant.id;
    const other = (v: unknown) => (typeof v === 'number' ? 1 - v : v === '["orders:read","orders:write"]' ? '["orders:read"]' : v === 'secret' ? 'widget' : `${String(v)}-forged`);
    let checked = 0;
    // one of A's keys as a paired screen's (api_keys.screen), so every credential column has a value to forge
    await db.updateTable('api_keys').set({ screen: 'kitchen' }).where('restaurant_id', '=', A).where('kind', '=', 'widget').execute();
    // and a staff PIN on the cloud (users.pin_hash): a hub must not replace it, then sign in with its own
    await db.updateTable('users').set({ pin_hash: await hashPassword('2468') }).where('restaurant_id', '=', A).execute();
    for (const [table, rule] of Object.entries(WRITE_RULES)) {
      if (!rule.credentials) continue;
      for (const column of rule.credentials) {
        const row: Row = await db
          .selectFrom(table)
          .selectAll()
          .where(table === 'restaurants' ? 'id' : 'restaurant_id', '=', A)
          .where(column, 'is not', null)
          .orderBy('id')
          .executeTakeFirstOrThrow();
        expect(row[column], `${table}.${column} of A's first row`).not.toBeNull();
        const res = await pushOwn([{ table, row: { ...row, [column]: other(row[column]), name: `${row.name} (${column})` }, op: 'update', fields: [column, 'name'] }]);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        const after = await db.selectFrom(table).selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
        expect(after[column], `${table}.${column}`).toEqual(row[column]);
        expect(after.name).toBe(`${row.name} (${column})`);
        checked++;
      }
    }
    expect(checked).toBe(Object.values(WRITE_RULES).reduce((n, r) => n + (r.credentials?.length ?? 0), 0));
  });

  it('a staff PIN the cloud has is not replaced by a hub’s (issue 40)', async () => {
    const db = p.cloud.server.services.db as any;
    const A = p.hub.restaurant.id;
    const person: Row = await db.selectFrom('users').selectAll().where('restaurant_id', '=', A).orderBy('id').executeTakeFirstOrThrow();
    const cloudPin = await hashPassword('1357');
    await db.updateTable('users').set({ pin_hash: cloudPin }).where('id', '=', person.id).execute();
    const forged = await hashPassword('0000');
    const res = await pushOwn([{ table: 'users', row: { ...person, pin_hash: forged }, op: 'update', fields: ['pin_hash'] }]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const after = await db.selectFrom('users').select('pin_hash').where('id', '=', person.id).executeTakeFirstOrThrow();
    expect(after.pin_hash).toBe(cloudPin);
  });

  it('a key the hub creates travels with its hash: it opens the cloud for the hub’s own restaurant', async () => {
    const db = p.cloud.server.services.db as any;
    const template: Row = await db.selectFrom('api_keys').selectAll().where('restaurant_id', '=', p.hub.restaurant.id).where('kind', '=', 'widget').executeTakeFirstOrThrow();
    const key = makeApiKey('widget', true);
    const row = { ...template, id: `key_new${randomBytes(8).toString('hex')}`, hash: hashApiKey(key), prefix: keyPrefix(key), name: 'Made on the hub', screen: null };
    expect((await pushOwn([{ table: 'api_keys', row, op: 'insert', fields: null }])).status).toBe(200);
    expect((await p.cloud.api.withKey(key).get('/public/orders/active')).status).toBe(200);
  });

  it('a batch naming a local table (sessions, pairings, sealed settings, sync’s own) is refused whole (400)', async () => {
    for (const table of NEVER_SYNCED) {
      const res = await pushOwn([{ table, row: { id: 'x_1', restaurant_id: p.hub.restaurant.id }, op: 'insert', fields: null }]);
      expect(res.status, table).toBe(400);
      expect(res.body.error.code).toBe('sync_batch_invalid');
    }
  });

  it('a password first set on the hub reaches the cloud; a later change on the hub stays on the hub; one made on the cloud reaches the hub', async () => {
    const services = p.hub.server.services;
    const staff = await p.hub.api.post('/v1/staff', { name: 'Sam', email: 'sam@example.com', role: 'manager' });
    expect(staff.status).toBe(201);
    await syncUntilIdle(services);
    const hashOn = async (side: typeof p.hub) =>
      (await side.server.services.db.selectFrom('users').select('password_hash').where('id', '=', staff.body.id).executeTakeFirstOrThrow()).password_hash;
    expect(await hashOn(p.cloud)).toBeNull();

    expect((await p.hub.api.post(`/v1/staff/${staff.body.id}/password`, { password: 'first password here' })).status).toBe(200);
    await syncUntilIdle(services);
    const first = await hashOn(p.hub);
    expect(await hashOn(p.cloud)).toBe(first);

    expect((await p.hub.api.post(`/v1/staff/${staff.body.id}/password`, { password: 'second password here' })).status).toBe(200);
    expect((await p.hub.api.patch(`/v1/staff/${staff.body.id}`, { name: 'Sam Second' })).status).toBe(200);
    await syncUntilIdle(services);
    expect(await hashOn(p.cloud)).toBe(first);
    // the rest of the row still follows the hub
    expect((await p.cloudApi.get(`/v1/staff/${staff.body.id}`)).body.name).toBe('Sam Second');

    p.cloud.clock.advance(60_000);
    expect((await p.cloudApi.post(`/v1/staff/${staff.body.id}/password`, { password: 'set on the cloud' })).status).toBe(200);
    await syncUntilIdle(services);
    expect(await hashOn(p.hub)).toBe(await hashOn(p.cloud));
    expect(await hashOn(p.hub)).not.toBe(first);
  });
});

describe('cloud sync: a refused push shows on both sides', () => {
  let p: Awaited<ReturnType<typeof startPair>> | undefined;
  afterAll(() => p?.close());

  it('a hub whose log was altered to name a row of another restaurant is refused; the hub’s and the cloud’s status both say why', async () => {
    p = await startPair();
    await p.link();
    await goOffline(p.hub);
    const theirs = await p.cloud.api.post('/v1/customers', { name: 'Bea', email: 'bea@b.example' });
    expect(theirs.status).toBe(201);
    const mine = await p.hub.api.post('/v1/customers', { name: 'Ada', email: 'ada@a.example' });
    expect(mine.status).toBe(201);
    // someone at the hub rewrites its last change to name B's customer
    const db = p.hub.server.services.db;
    const entry = await db.selectFrom('change_log').selectAll().where('row_id', '=', mine.body.id).executeTakeFirstOrThrow();
    const data = { ...JSON.parse(entry.data), id: theirs.body.id, name: 'Taken over' };
    await db.updateTable('change_log').set({ row_id: theirs.body.id, data: JSON.stringify(data) }).where('seq', '=', entry.seq).execute();
    goOnline(p.hub);
    const hubSays = async () => String((await p!.hub.api.get('/v1/sync/status')).body.last_error ?? '');
    const cloudSays = async () => String((await p!.cloudApi.get('/v1/sync/status')).body.last_error ?? '');
    await until('the hub says the restaurant does not match', async () => (await hubSays()).startsWith('sync_restaurant_mismatch'));
    expect(await cloudSays()).toMatch(/^sync_restaurant_mismatch/);
    expect((await p.cloud.api.get(`/v1/customers/${theirs.body.id}`)).body.name).toBe('Bea');
  });
});
