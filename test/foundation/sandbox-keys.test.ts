import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../server/demo/seed.ts';
import { createApiKey } from '../../server/domain/keys/create-key.ts';
import { SANDBOX_POLICIES, type RouteSpec } from '../../server/http/route.ts';
import { routes } from '../../server/api/routes.ts';
import { DIALECTS } from '../helpers/db.ts';
import { expectError } from '../helpers/assert.ts';
import { ApiClient, startHub, type ApiResponse, type TestHub } from '../helpers/server.ts';

/**
 * What a sandbox key (sk_test_…) may do, walked over every route the server registers (docs/integrators/api.md,
 * "Sandbox keys"). A route added later without saying what a sandbox key may do fails here.
 */

/** Why a route's declaration is not acceptable, or null. */
function declarationProblem(r: Pick<RouteSpec, 'method' | 'path' | 'auth' | 'sandbox'>): string | null {
  if (!(SANDBOX_POLICIES as readonly string[]).includes(r.sandbox)) {
    return `${r.method} ${r.path} does not declare what a sandbox key may do (sandbox: ${SANDBOX_POLICIES.join(' | ')})`;
  }
  if (r.sandbox === 'read_only' && r.method !== 'get') return `${r.method} ${r.path}: read_only is for GET routes`;
  if ((r.sandbox === 'keyless') !== (r.auth === 'none')) return `${r.method} ${r.path}: keyless exactly when the route takes no key`;
  return null;
}

describe('every route declares its sandbox policy', () => {
  it.each(routes.map((r) => [`${r.method.toUpperCase()} ${r.path}`, r] as const))('%s', (_name, r) => {
    expect(declarationProblem(r)).toBeNull();
  });

  it('a route without a declaration is caught', () => {
    const undeclared = { method: 'post', path: '/v1/new_thing', auth: 'secret' } as RouteSpec;
    expect(declarationProblem(undeclared)).toMatch(/does not declare/);
    expect(declarationProblem({ ...undeclared, sandbox: 'read_only' })).toMatch(/GET routes/);
  });
});

/** Per-mode resources: the sandbox has records of its own there (path segment → table). */
const PER_MODE: Record<string, string> = {
  orders: 'orders',
  reservations: 'reservations',
  waitlist: 'waitlist_entries',
  events: 'events',
  webhook_endpoints: 'webhook_endpoints',
  print_jobs: 'print_jobs',
  payments: 'payments',
  cash_counts: 'cash_counts',
};
/** Shared resources: one set of records, the live restaurant's (path segment → table, column). */
const SHARED: Record<string, [string, string]> = {
  stations: ['stations', 'key'],
  menu_categories: ['menu_categories', 'id'],
  menu_items: ['menu_items', 'id'],
  modifier_groups: ['modifier_groups', 'id'],
  qr_codes: ['qr_codes', 'id'],
  tables: ['tables', 'id'],
  customers: ['customers', 'id'],
  staff: ['users', 'id'],
  shifts: ['shifts', 'id'],
  inventory_items: ['inventory_items', 'id'],
  printers: ['printers', 'id'],
  feedback: ['feedback', 'id'],
};

const SAMPLE_BODIES: Record<string, (ids: Ids) => unknown> = {
  'POST /v1/orders': (ids) => ({ type: 'takeout', items: [{ menu_item: ids.plainItem, quantity: 1 }] }),
  'POST /public/orders': (ids) => ({ type: 'takeout', items: [{ menuItemId: ids.plainItem, quantity: 1 }] }),
  'POST /v1/reservations': () => ({ guest_name: 'Test Guest', party_size: 2, date: '2026-11-05', time: '19:00' }),
  'POST /v1/waitlist': () => ({ guest_name: 'Test walk-in', party_size: 2 }),
  'POST /v1/webhook_endpoints': () => ({ url: 'http://127.0.0.1:9/sandbox', enabled_events: ['*'] }),
  'PATCH /v1/orders/:id': () => ({ notes: 'sandbox note' }),
  'POST /v1/orders/:id/payments': () => ({ method: 'cash', amount: 1 }),
  'POST /v1/cash_counts': () => ({ counted_amount: 1000 }),
};

interface Ids {
  plainItem: string;
  live: Record<string, string>;
  sandbox: Record<string, string>;
}

describe.each(DIALECTS)('a sandbox key on every route on %s', (dialect) => {
  let hub: TestHub;
  let sandbox: ApiClient;
  let sandboxWidget: ApiClient;
  let ids: Ids;
  let tables: string[];

  const db = () => hub.server.services.db as any;
  const first = async (table: string, column: string, where: Record<string, unknown> = {}) => {
    let q = db().selectFrom(table).select(column).where('restaurant_id', '=', hub.restaurant.id);
    for (const [k, v] of Object.entries(where)) q = q.where(k, '=', v);
    return ((await q.orderBy(column).executeTakeFirst()) ?? {})[column] as string | undefined;
  };

  /** Rows of every table and the change log's last position: equal before and after means nothing was written. */
  const fingerprint = async () => {
    const counts = tables.map((t) => sql`select ${sql.lit(t)} as t, count(*) as n from ${sql.table(t)}`);
    const r = await sql<{ t: string; n: number }>`${sql.join(counts, sql` union all `)}`.execute(hub.server.services.db);
    const seq = await db().selectFrom('change_log').select((eb: any) => eb.fn.max('seq').as('s')).executeTakeFirst();
    return { rows: Object.fromEntries(r.rows.map((x) => [x.t, Number(x.n)])), seq: Number(seq?.s ?? 0) };
  };

  /** Change-log entries since `seq` that are not sandbox records (or children of one). */
  const liveChanges = async (seq: number) => {
    const rows = await db().selectFrom('change_log').select(['table_name', 'row_id', 'data']).where('seq', '>', seq).execute();
    const bad: string[] = [];
    for (const row of rows) {
      const data = JSON.parse(row.data);
      if ('livemode' in data) {
        if (Number(data.livemode) !== 0) bad.push(`${row.table_name} ${row.row_id}`);
      } else if (typeof data.order_id === 'string') {
        const parent = await db().selectFrom('orders').select('livemode').where('id', '=', data.order_id).executeTakeFirst();
        if (Number(parent?.livemode) !== 0) bad.push(`${row.table_name} ${row.row_id} (of ${data.order_id})`);
      } else bad.push(`${row.table_name} ${row.row_id} (no mode)`);
    }
    return bad;
  };

  beforeAll(async () => {
    // a developer's hub: the sandbox's webhook receiver runs on this machine
    hub = await startHub(dialect, { config: { webhooks: { sandboxPrivateTargets: true } } });
    const { services } = hub.server;
    await seedDemo(services.tx, { restaurantId: hub.restaurant.id, livemode: true, now: hub.clock.now() }, { historyDays: 1, ordersPerDay: 4 }, services.registry.hooks);
    const widget = await services.tx.run((trx) =>
      createApiKey(trx, hub.clock.now(), { restaurantId: hub.restaurant.id, kind: 'widget', livemode: false, grantedBy: 'operator' }),
    );
    sandbox = hub.api.withKey(hub.keys.sandbox);
    sandboxWidget = hub.api.withKey(widget.key);
    // (without what the dispatchers write on their own, in the background, while the test runs)
    const background = new Set(['webhook_deliveries', 'webhook_attempts', 'printer_status', 'server_processes']);
    tables = (await services.db.introspection.getTables()).map((t) => t.name).filter((t) => !t.startsWith('kysely_') && !background.has(t));

    // live records the sandbox must not reach, besides the demo's
    const staff = await first('users', 'id');
    expect((await hub.api.post('/v1/shifts', { user: staff })).status).toBe(201);
    const plainItem = (await db()
      .selectFrom('menu_items')
      .select('id')
      .where('restaurant_id', '=', hub.restaurant.id)
      .where('modifier_group_ids', '=', '[]')
      .where('is_active', '=', 1)
      .orderBy('id')
      .executeTakeFirstOrThrow()).id as string;
    const liveOrder = await hub.api.post('/v1/orders', { type: 'takeout', items: [{ menu_item: plainItem, quantity: 1 }] });
    expect(liveOrder.status).toBe(201);
    // the demo's printers are off; a test page needs one that is on (nothing listens there)
    const printer = (await hub.api.post('/v1/printers', { name: 'Pass', transport: { type: 'tcp', host: '127.0.0.1', port: 9 }, stations: [] })).body.id as string;
    expect((await hub.api.post(`/v1/printers/${printer}/test`, {})).status).toBe(201);

    // and the sandbox's own
    for (const key of ['POST /v1/orders', 'POST /v1/reservations', 'POST /v1/waitlist', 'POST /v1/webhook_endpoints']) {
      const res = await sandbox.post(key.split(' ')[1], SAMPLE_BODIES[key]({ plainItem } as Ids));
      expect(res.status, `${key}: ${JSON.stringify(res.body)}`).toBe(201);
      expect(res.body.livemode).toBe(false);
    }
    expect((await sandbox.post(`/v1/printers/${printer}/test`, {})).status).toBe(201);
    // a payment and a cash count of each mode (a placed order takes payment)
    for (const api of [hub.api, sandbox]) {
      const order = await api.post('/v1/orders', { type: 'takeout', items: [{ menu_item: plainItem, quantity: 1 }] });
      expect((await api.patch(`/v1/orders/${order.body.id}`, { status: 'placed' })).status).toBe(200);
      expect((await api.post(`/v1/orders/${order.body.id}/payments`, { method: 'cash', amount: 1 })).status).toBe(201);
      expect((await api.post('/v1/cash_counts', { counted_amount: 100 })).status).toBe(201);
    }

    ids = { plainItem, live: {}, sandbox: {} };
    for (const [segment, table] of Object.entries(PER_MODE)) {
      ids.live[segment] = (await first(table, 'id', { livemode: 1 }))!;
      ids.sandbox[segment] = (await first(table, 'id', { livemode: 0 }))!;
      expect(ids.live[segment], `a live ${table} row`).toBeDefined();
      expect(ids.sandbox[segment], `a sandbox ${table} row`).toBeDefined();
    }
    for (const [segment, [table, column]] of Object.entries(SHARED)) {
      ids.live[segment] = ids.sandbox[segment] = (await first(table, column))!;
      expect(ids.live[segment], `a ${table} row`).toBeDefined();
    }
    ids.live.printers = ids.sandbox.printers = printer; // one that is on: a test page needs it
    ids.live.qr = ids.sandbox.qr = (await first('qr_codes', 'token'))!;
    // the back office's keys and sessions: refused before they are looked up
    ids.live.api_keys = ids.sandbox.api_keys = (await first('api_keys', 'id'))!;
    ids.live.sessions = ids.sandbox.sessions = 'ses_any';
    // sync conflicts: refused before they are looked up
    ids.live.sync = ids.sandbox.sync = 'sconf_any';
    ids.live.devices = ids.sandbox.devices = ids.live.api_keys;
  });
  afterAll(() => hub?.close());

  /** The route's path with the ids of `mode`'s records (per-mode resources differ by mode). */
  const pathFor = (r: RouteSpec, mode: 'live' | 'sandbox') => {
    const segment = r.path.startsWith('/public/orders') ? 'orders' : r.path.split('/')[2];
    return r.path.replace(/:(\w+)/g, (_m, name: string) => {
      if (name === 'itemIndex' || name === 'index') return '0';
      if (name === 'slug') return hub.restaurant.slug;
      if (name === 'token') return r.path.startsWith('/public/qr') ? ids.live.qr : 'no_such_token'; // keyless: any value tells
      if (name === 'orderId') return ids.live.orders;
      const id = ids[mode][segment];
      if (!id) throw new Error(`no fixture for ${r.path}`);
      return id;
    });
  };

  const call = (r: RouteSpec, api: ApiClient, path: string, body?: unknown): Promise<ApiResponse> =>
    api.request(r.method.toUpperCase(), path, { body: r.method === 'get' || r.method === 'delete' ? undefined : (body ?? {}) });

  const sandboxFor = (r: RouteSpec) => (r.auth === 'widget' ? sandboxWidget : sandbox);
  const name = (r: RouteSpec) => `${r.method.toUpperCase()} ${r.path}`;
  // a hub serves every route but the cloud's side of sync (role: cloud), which test/sync drives
  const byPolicy = (p: string) => routes.filter((r) => r.sandbox === p && !r.role).map((r) => [name(r), r] as const);

  it.each(byPolicy('live_only'))('%s is refused to a sandbox key, and nothing is written', async (_n, r) => {
    const before = await fingerprint();
    const res = await call(r, sandboxFor(r), pathFor(r, 'live'), SAMPLE_BODIES[name(r)]?.(ids));
    expectError(res, 403, 'key_type_not_allowed');
    expect(await fingerprint()).toEqual(before);
  });

  it.each(byPolicy('read_only'))('%s reads the live configuration with a sandbox key, writing nothing', async (_n, r) => {
    const before = await fingerprint();
    const res = await call(r, sandboxFor(r), pathFor(r, 'live'));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await fingerprint()).toEqual(before);
  });

  let ownModeSuccesses = 0;
  it.each(byPolicy('own_mode'))('%s works on the sandbox records only', async (_n, r) => {
    // the live record of a per-mode resource does not exist for a sandbox key
    const perMode = /:id/.test(r.path) && PER_MODE[r.path.startsWith('/public/orders') ? 'orders' : r.path.split('/')[2]];
    if (perMode) {
      const before = await fingerprint();
      const res = await call(r, sandboxFor(r), pathFor(r, 'live'));
      if (r.method === 'get') expectError(res, 404, 'resource_missing');
      else expect(res.status, JSON.stringify(res.body)).toBeGreaterThanOrEqual(400);
      expect(await fingerprint()).toEqual(before);
    }
    // with the sandbox's own records it is served, and whatever it writes is sandbox data
    const seq = (await fingerprint()).seq;
    const res = await call(r, sandboxFor(r), pathFor(r, 'sandbox'), SAMPLE_BODIES[name(r)]?.(ids));
    expect(res.status, JSON.stringify(res.body)).not.toBe(403);
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
    if (res.status < 300 && r.method !== 'get') ownModeSuccesses++;
    expect(await liveChanges(seq)).toEqual([]);
  });

  it('sandbox writes did happen above (the check on what they wrote was not vacuous)', () => {
    expect(ownModeSuccesses).toBeGreaterThanOrEqual(5);
  });

  it.each(byPolicy('keyless'))('%s takes no key: a sandbox key is neither needed nor refused', async (_n, r) => {
    const res = await call(r, sandbox, pathFor(r, 'live'));
    const without = await call(r, hub.api.withKey(null), pathFor(r, 'live'));
    // the key changes nothing: a route that needs a staff session says so either way
    expect(res.status, JSON.stringify(res.body)).toBe(without.status);
    if (res.body?.error?.code !== 'not_signed_in') expect([401, 403], JSON.stringify(res.body)).not.toContain(res.status);
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
  });

  it('personal data reached through expand is refused to a sandbox key, not to a live one', async () => {
    const sandboxOrder = ids.sandbox.orders;
    expectError(await sandbox.get(`/v1/orders/${sandboxOrder}?expand[]=server`), 403, 'key_type_not_allowed', 'expand');
    // who worked when is live staff data: refused to a sandbox key outright (issue 40)
    expect((await sandbox.get('/v1/shifts?expand[]=user')).status).toBe(403);
    expect((await sandbox.get('/v1/shifts')).status).toBe(403);
    expect((await sandbox.get(`/v1/orders/${sandboxOrder}?expand[]=items.menu_item`)).status).toBe(200);
    const live = await hub.api.get('/v1/shifts?expand[]=user');
    expect(live.status).toBe(200);
    expect(live.body.data[0].user).toHaveProperty('hourly_rate');
  });
});
