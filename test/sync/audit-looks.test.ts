import { afterEach, describe, expect, it } from 'vitest';
import { compareSides, type AuditAsk, type SideSummary } from '../../sync/audit.ts';
import { callCloud, credentialOf, readLink } from '../../sync/hub.ts';
import { PROTOCOL_VERSION } from '../../sync/protocol.ts';
import { repairWithCloud } from '../../sync/repair.ts';
import { seedMenu } from '../orders/fixtures.ts';
import { until } from '../helpers/until.ts';
import { audit, goOffline, startPair, type Pair } from './helpers.ts';

/**
 * The audit's second look. Under live traffic nearly every bucket of the busy tables differs
 * (rows in flight), and the cloud used to answer with the whole rows of all of them: tens of
 * thousands of rows serialised in one go. It now answers per-row hashes, and only the rows
 * whose hashes differ travel whole. Old and new sides still understand each other (protocol 5
 * both, during a rolling restart).
 */
describe('sync: the audit ships rows only where they differ', () => {
  let pair: Pair | undefined;
  afterEach(async () => {
    await pair?.close();
    pair = undefined;
  });

  const ORDERS = 96;
  const bucket = (id: string) => id.slice(-1).toUpperCase();

  /** A linked pair in sync, the hub's line then down; on the cloud, one order in each of ten buckets rewritten behind the log. */
  const diverged = async () => {
    const p = (pair = await startPair());
    const menu = await seedMenu(p.hub);
    for (let i = 0; i < ORDERS; i++) {
      const r = await p.hub.api.post('/v1/orders', { type: 'takeout', customer_name: `Guest ${i}`, items: [{ menu_item: menu.pasta, quantity: 1 }] });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
    }
    await p.link();
    await until('the audit finds the sides the same', async () => (await audit(p.hub)).in_sync, 30_000);
    // the hub's own sync (and its repair) stops; the audits below are the test's
    await goOffline(p.hub);
    const link = (await readLink(p.hub.server.services.db))!;
    const cloudDb = p.cloud.server.services.db;
    const orders = await cloudDb.selectFrom('orders').select('id').where('restaurant_id', '=', link.restaurant_id).orderBy('id').execute();
    const byBucket = new Map<string, string[]>();
    for (const o of orders) byBucket.set(bucket(o.id), [...(byBucket.get(bucket(o.id)) ?? []), o.id]);
    // buckets holding more than one order: their other orders are the same on both sides
    const changed = [...byBucket.values()].filter((ids) => ids.length > 1).slice(0, 10).map((ids) => ids[0]);
    expect(changed).toHaveLength(10);
    const inThoseBuckets = changed.reduce((n, id) => n + byBucket.get(bucket(id))!.length, 0);
    expect(inThoseBuckets).toBeGreaterThan(changed.length);
    await cloudDb.updateTable('orders').set({ notes: 'written behind the log' }).where('id', 'in', changed).execute();
    const ask = (body: object) => callCloud<SideSummary>(link.cloud_url, '/audit', { protocol: PROTOCOL_VERSION, ...body }, { credential: credentialOf(p.hub.server.services, link) });
    return { p, link, changed: changed.sort(), inThoseBuckets, ask };
  };

  /** Rows a set of the cloud's answers carried whole. */
  const rowsIn = (answers: SideSummary[]) => answers.reduce((n, a) => n + Object.values(a.rows ?? {}).reduce((m, t) => m + Object.keys(t).length, 0), 0);

  it('ten orders rewritten on the cloud, in ten buckets: the cloud sends those ten rows whole and no others', async () => {
    const { p, link, changed, inThoseBuckets, ask } = await diverged();
    const answers: SideSummary[] = [];
    const report = await compareSides(p.hub.server.services.db, link.restaurant_id, async (a: AuditAsk) => {
      const answer = await ask(a);
      answers.push(answer);
      return answer;
    });
    expect(report.in_sync).toBe(false);
    expect(report.tables.filter((t) => !t.in_sync).map((t) => t.table)).toEqual(['orders']);
    expect(report.differences.map((d) => d.id)).toEqual(changed);
    for (const d of report.differences) {
      expect(d.table).toBe('orders');
      expect(d.cloud?.notes).toBe('written behind the log');
      expect(d.hub?.notes).not.toBe('written behind the log');
    }
    // the second look listed every order of the ten buckets by hash; only the ten differing rows came whole
    expect(answers).toHaveLength(3);
    expect(Object.keys(answers[1].hashes!.orders)).toHaveLength(inThoseBuckets);
    expect(answers[1].rows).toBeUndefined();
    expect(rowsIn(answers)).toBe(changed.length);
    expect(Object.keys(answers[2].rows!.orders).sort()).toEqual(changed);
  });

  it('a newer hub with a cloud from before per-row hashes: the cloud answers rows, and the report is the same', async () => {
    const { p, link, changed, inThoseBuckets, ask } = await diverged();
    const asked: AuditAsk[] = [];
    // a cloud from before knows neither `hashes` nor `ids`: its schema drops them (zod strips
    // keys it does not know), so it answers as to a `detail` alone
    const oldCloud = async (a: AuditAsk) => {
      asked.push(a);
      return ask({ detail: a.detail });
    };
    const report = await compareSides(p.hub.server.services.db, link.restaurant_id, oldCloud);
    expect(report.differences.map((d) => d.id)).toEqual(changed);
    expect(report.differences.every((d) => d.cloud?.notes === 'written behind the log' && d.hub !== null)).toBe(true);
    // the hub saw rows in the answer and hashed them itself: no third request was made
    expect(asked.map((a) => Object.keys(a).sort())).toEqual([[], ['detail', 'hashes']]);
    const current = await compareSides(p.hub.server.services.db, link.restaurant_id, ask);
    expect(report).toEqual(current);
    // behind a balancer mid-restart: the hashes from a new process, the rows asked of an old one
    // (which drops `ids` and answers a summary): the hub takes that process's rows of the buckets
    const mixed = await compareSides(p.hub.server.services.db, link.restaurant_id, (a) => ask(a.ids ? {} : a));
    expect(mixed).toEqual(current);
    // and the old answer did carry every row of those buckets
    expect(rowsIn([await ask({ detail: { orders: changed.map(bucket) } })])).toBe(inThoseBuckets);
  });

  it('an older hub with a newer cloud: a second look without `hashes` is answered with the buckets’ whole rows, as before', async () => {
    const { p, link, changed, inThoseBuckets, ask } = await diverged();
    // what a hub from before sends: the differing buckets, nothing else
    const answer = await ask({ detail: { orders: changed.map(bucket) } });
    expect(answer.hashes).toBeUndefined();
    const rows = answer.rows!.orders;
    expect(Object.keys(rows)).toHaveLength(inThoseBuckets);
    const onCloud = await p.cloud.server.services.db.selectFrom('orders').selectAll().where('id', 'in', Object.keys(rows)).execute();
    for (const r of onCloud) expect(JSON.parse(JSON.stringify(r))).toEqual(rows[r.id]);
    for (const id of changed) expect(rows[id].notes).toBe('written behind the log');
  });

  it('rows only in flight (different at the second look, the same by the third): the repair stops after that audit, not four, and counts the sides the same', async () => {
    const p = (pair = await startPair());
    const menu = await seedMenu(p.hub);
    for (let i = 0; i < 8; i++) expect((await p.hub.api.post('/v1/orders', { type: 'takeout', customer_name: `Guest ${i}`, items: [{ menu_item: menu.pasta, quantity: 1 }] })).status).toBe(201);
    await p.link();
    await until('the audit finds the sides the same', async () => (await audit(p.hub)).in_sync, 30_000);
    await goOffline(p.hub);
    const services = p.hub.server.services;
    const link = (await readLink(services.db))!;
    const order = (await services.db.selectFrom('orders').select('id').where('restaurant_id', '=', link.restaurant_id).orderBy('id').executeTakeFirstOrThrow()).id;
    // live traffic, as the cloud's answers show it: the order changes between the looks (its
    // bucket and its row hash differ), and by the look at its row it has arrived
    const summaries: AuditAsk[] = [];
    const call = async <T,>(path: string, body: unknown): Promise<T> => {
      const ask = body as AuditAsk;
      const answer = await callCloud<SideSummary>(link.cloud_url, path, body, { credential: credentialOf(services, link) });
      if (path === '/audit' && !ask.detail && !ask.ids) {
        summaries.push(ask);
        answer.tables.orders.buckets[bucket(order)] = '0'.repeat(16);
      }
      if (path === '/audit' && ask.detail) answer.hashes!.orders[order] = '0'.repeat(16);
      return answer as T;
    };
    const states: string[] = [];
    const outcome = await repairWithCloud(services, link, call, async (s) => void states.push(s.state));
    expect(outcome.report.in_sync).toBe(false);
    expect(outcome.report).toMatchObject({ differences: [], in_flight: 1, truncated: false });
    // nothing differs that the log does not bring: the next run is the usual one, in 10 minutes
    expect(outcome).toMatchObject({ state: 'in_sync', repaired_rows: 0, unconverged: [] });
    expect(summaries).toHaveLength(1);
    expect(states.at(-1)).toBe('in_sync');
  });
});
