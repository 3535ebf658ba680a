import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import fs from 'node:fs';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../../server/db/database.ts';
import { silentLogger } from '../../server/logger.ts';
import { createServer } from '../../server/server.ts';
import { createInvite } from '../../sync/cloud/link.ts';
import { SyncClient } from '../../sync/hub.ts';
import { linkHub } from '../../sync/link.ts';
import { comanda, ServeProcess } from '../../test/helpers/comanda-process.ts';
import { ApiClient } from '../../test/helpers/server.ts';
import { TcpProxy } from '../../test/helpers/tcp-proxy.ts';
import { createOrder } from '../../server/domain/orders/create-order.ts';
import type { Services } from '../../server/services.ts';
import type { BenchScenario } from '../scenario.ts';
import { changeCount, cloudPostgres, makeHub, percentile, writeService, type BenchHub } from '../sync-fixtures.ts';

const WEEK_ORDERS = Number(process.env.BENCH_WEEK_ORDERS ?? 10_000);
const WEEK_RESERVATIONS = Math.round(WEEK_ORDERS * 0.07);
const LAG_RATE = 10;
const LAG_SECONDS = Number(process.env.BENCH_LAG_SECONDS ?? 30);
const HUBS = 50;
// BENCH_HUB_ORDERS=10: a smaller backlog per hub, to compare two builds' online lag sooner
const ORDERS_PER_HUB = Number(process.env.BENCH_HUB_ORDERS ?? 100);
const LAG_HUB_SECONDS = 30;

const poll = async (what: string, cond: () => Promise<boolean>, deadlineMs: number, everyMs = 50) => {
  const end = Date.now() + deadlineMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`gave up waiting: ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
};

/** CPU seconds (user + system) a process has used so far, from /proc (0 where there is none: not Linux, or gone). */
const cpuSeconds = (pid: number | undefined): number => {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime, fields 14 and 15 of stat, in clock ticks (100 a second on Linux)
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
};

/** CPU used so far by the hub's and the cloud's processes and by each of the cloud database's server processes. */
const cpuOfSides = async (cloudDb: Database, cloud: ServeProcess, hub: ServeProcess) => {
  const pids = (await sql<{ pid: number }>`select pid from pg_stat_activity`.execute(cloudDb.db)).rows.map((r) => r.pid);
  return { hub: cpuSeconds(hub.child.pid), cloud: cpuSeconds(cloud.child.pid), pg: new Map(pids.map((p) => [p, cpuSeconds(p)])) };
};

const cpuSpent = (a: Awaited<ReturnType<typeof cpuOfSides>>, b: Awaited<ReturnType<typeof cpuOfSides>>) => {
  let pg = 0;
  for (const [pid, t] of b.pg) pg += t - (a.pg.get(pid) ?? 0);
  return { hub: b.hub - a.hub, cloud: b.cloud - a.cloud, pg };
};

const cursorOf = async (cloud: Database, restaurantId: string) =>
  Number((await cloud.db.selectFrom('sync_hubs').select('cursor').where('restaurant_id', '=', restaurantId).where('revoked_at', 'is', null).executeTakeFirst())?.cursor ?? 0);

/**
 * (i) A hub linked to its cloud goes offline for a week of service, then comes back: the
 * time from its restart until the cloud holds everything. (ii) Then both take 10 orders/s for
 * 30 s: the lag from one side's commit to the row on the other side. Real processes: the
 * cloud and the hub are `comanda serve`, the cloud on an embedded PostgreSQL.
 */
async function weekAndLag(): Promise<string[]> {
  const pgs = await cloudPostgres();
  const out: string[] = [];
  let cloud: ServeProcess | null = null;
  let hubProc: ServeProcess | null = null;
  let hub: BenchHub | null = null;
  let cloudDb: Database | null = null;
  try {
    const cloudUrl = await pgs.fresh();
    cloudDb = await openDatabase({ databaseUrl: cloudUrl });
    cloud = await ServeProcess.start(['--role', 'cloud', '--database-url', cloudUrl]);
    hub = await makeHub('week-offline');
    const invite = await comanda('sync', 'invite', '--database-url', cloudUrl);
    await comanda('sync', 'link', '--data-dir', hub.dir, '--cloud-url', cloud.url, '--code', invite.code);

    // the week, written while the hub is offline (no serve process: nothing can reach the cloud)
    const t0 = performance.now();
    await writeService(hub, { orders: WEEK_ORDERS, reservations: WEEK_RESERVATIONS, days: 7 });
    const written = await changeCount(hub);
    const before = await cursorOf(cloudDb, hub.restaurantId);
    out.push(
      `a week offline: ${written.orders} orders, ${written.reservations} reservations, ${written.entries} change-log entries (${written.entries - before} unsent) written in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );

    if (process.env.BENCH_PG_STATEMENTS) await sql`select pg_stat_statements_reset()`.execute(cloudDb.db);
    const load0 = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    const start = performance.now();
    hubProc = await ServeProcess.start(['--data-dir', hub.dir]);
    const ready = performance.now();
    const cpuAtReady = await cpuOfSides(cloudDb, cloud, hubProc);
    await poll('the cloud holds the week', async () => (await cursorOf(cloudDb!, hub!.restaurantId)) >= written.top, 300_000, 100);
    const total = (performance.now() - start) / 1000;
    const pushing = (performance.now() - ready) / 1000;
    const cpu = cpuSpent(cpuAtReady, await cpuOfSides(cloudDb, cloud, hubProc));
    const unsent = written.entries - before;
    out.push(
      `  replicated in ${total.toFixed(1)} s from the hub's restart (${pushing.toFixed(1)} s after it listened; ${Math.round(unsent / pushing)} entries/s) → ${total < 10 ? 'PASS' : 'FAIL'} (target < 10 s, ≥ 10,000 entries/s)`,
      // CPU time is what a loaded box does not distort much: compare builds by it
      `  CPU from the hub's listening to the cloud holding the week: hub ${cpu.hub.toFixed(2)} s, cloud ${cpu.cloud.toFixed(2)} s, PostgreSQL ${cpu.pg.toFixed(2)} s; ${Math.round(((cpu.hub + cpu.cloud + cpu.pg) * 1e6) / unsent)} µs per entry in all (hub ${Math.round((cpu.hub * 1e6) / unsent)}, cloud ${Math.round((cpu.cloud * 1e6) / unsent)}, PostgreSQL ${Math.round((cpu.pg * 1e6) / unsent)}); load ${load0} → ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
    );
    if (process.env.BENCH_PG_STATEMENTS) {
      // what PostgreSQL spent the week on, per entry: by time, then by calls
      const per = (x: number) => x / Math.max(1, unsent);
      for (const [by, order] of [['exec time', sql`total_exec_time`], ['calls', sql`calls`]] as const) {
        const top = await sql<{ calls: string; ms: number; query: string }>`select calls, total_exec_time as ms, query from pg_stat_statements order by ${order} desc limit 15`.execute(cloudDb.db);
        out.push(`  the cloud's statements by ${by}, per entry (calls, exec µs):`);
        for (const r of top.rows) out.push(`    ${per(Number(r.calls)).toFixed(4)}  ${(per(r.ms) * 1000).toFixed(1)} µs  ${r.query.replace(/\s+/g, ' ').slice(0, 160)}`);
      }
    }

    // (ii) online, once the hub also holds what the cloud wrote meanwhile: 10 orders/s each side for 30 s
    await poll(
      'the hub caught up with the cloud',
      async () => {
        const link = await hub!.database.db.selectFrom('sync_link').select('pull_cursor').where('id', '=', 1).executeTakeFirstOrThrow();
        const top = await cloudDb!.db.selectFrom('change_log').select((eb) => eb.fn.max('seq').as('m')).where('restaurant_id', '=', hub!.restaurantId).executeTakeFirst();
        return Number(link.pull_cursor) >= Number(top?.m ?? 0);
      },
      120_000,
      100,
    );
    const hubApi = new ApiClient(hubProc.url, hub.key);
    const cloudApi = new ApiClient(cloud.url, hub.key);
    const lags = { toCloud: [] as number[], toHub: [] as number[] };
    const waiting = { toCloud: new Map<string, number>(), toHub: new Map<string, number>() };
    let writing = true;
    // the watchers stop only after the writers: an order still in flight when the writing stops
    // is registered after it, and a watcher that stopped on `writing` said it "never arrived"
    let writersDone = false;
    const writer = async (api: ApiClient, into: Map<string, number>) => {
      const begin = performance.now();
      let n = 0;
      while (writing) {
        const r = await api.post('/v1/orders', { type: 'takeout', customer_name: `Online ${n}`, items: [{ menu_item: hub!.items[n % hub!.items.length], quantity: 1 }] });
        if (r.status !== 201) throw new Error(`order refused: ${r.status} ${JSON.stringify(r.body)}`);
        into.set(r.body.id, performance.now());
        n++;
        const wait = begin + (n * 1000) / LAG_RATE - performance.now();
        if (wait > 0) await new Promise((res) => setTimeout(res, wait));
      }
    };
    const watcher = async (db: Database, from: Map<string, number>, into: number[]) => {
      while (!writersDone || from.size > 0) {
        const ids = [...from.keys()];
        if (ids.length) {
          const seen = await db.db.selectFrom('orders').select('id').where('id', 'in', ids).execute();
          const now = performance.now();
          for (const { id } of seen) {
            into.push(now - from.get(id)!);
            from.delete(id);
          }
        }
        await new Promise((res) => setTimeout(res, 20));
      }
    };
    const hubDb = hub.database;
    const writers = [writer(hubApi, waiting.toCloud), writer(cloudApi, waiting.toHub)];
    const watchers = [watcher(cloudDb, waiting.toCloud, lags.toCloud), watcher(hubDb, waiting.toHub, lags.toHub)];
    await new Promise((res) => setTimeout(res, LAG_SECONDS * 1000));
    writing = false;
    await Promise.all(writers);
    writersDone = true;
    await Promise.race([Promise.all(watchers), new Promise((res) => setTimeout(res, 30_000))]);
    const fmt = (xs: number[]) => `p50 ${percentile(xs, 50).toFixed(0)} ms, p99 ${percentile(xs, 99).toFixed(0)} ms, max ${Math.max(...xs).toFixed(0)} ms (${xs.length} orders)`;
    // an order still missing after 30 s: say which way, and whether it comes at all (a lost wake-up
    // arrives with the next push or pull; a lost order never does, or only with the repair)
    const missing: [string, string, Database][] = [
      ...[...waiting.toCloud.keys()].map((id): [string, string, Database] => ['hub → cloud', id, cloudDb!]),
      ...[...waiting.toHub.keys()].map((id): [string, string, Database] => ['cloud → hub', id, hubDb]),
    ];
    for (const [way, id, db] of missing) {
      const t = performance.now();
      const came = await poll(`order ${id}`, async () => (await db.db.selectFrom('orders').select('id').where('id', '=', id).executeTakeFirst()) !== undefined, 60_000, 100).then(
        () => true,
        () => false,
      );
      out.push(`  ${way}: ${id} missing after 30 s; ${came ? `arrived ${((performance.now() - t) / 1000 + 30).toFixed(1)} s after the writing stopped` : 'still missing 90 s after'}`);
    }
    const lost = waiting.toCloud.size + waiting.toHub.size;
    const ok = lost === 0 && percentile(lags.toCloud, 99) < 2000 && percentile(lags.toHub, 99) < 2000;
    out.push(`online lag at ${LAG_RATE} orders/s each way for ${LAG_SECONDS} s, from the answer to the row on the other side:`);
    out.push(`  hub → cloud: ${fmt(lags.toCloud)}`);
    out.push(`  cloud → hub: ${fmt(lags.toHub)}`);
    out.push(`  ${ok ? 'PASS' : 'FAIL'} (target p99 < 2 s each way${lost ? `; ${lost} never arrived` : ''})`);
    return out;
  } finally {
    await hubProc?.stop();
    await cloud?.stop();
    await cloudDb?.close();
    if (hub) {
      await hub.database.close();
      fs.rmSync(hub.dir, { recursive: true, force: true });
    }
    await pgs.stop();
  }
}

/**
 * (iii) The cloud scaled out: two `comanda serve --role cloud` processes on one PostgreSQL
 * behind a round-robin balancer (a TCP proxy). First one hub pushes a backlog alone, then
 * HUBS hubs push the same backlog each at once (entries/s must not drop with concurrency),
 * then every hub takes one order a second for LAG_HUB_SECONDS: the lag from the hub's commit
 * to the row in the cloud. The hubs' sync clients run in this process (real protocol over
 * HTTP, each hub its own SQLite database; 50 more Node processes would not fit the machine).
 */
async function manyHubs(): Promise<string[]> {
  const pgs = await cloudPostgres();
  const hubs: BenchHub[] = [];
  const clients: SyncClient[] = [];
  const cloud: ServeProcess[] = [];
  let balancer: TcpProxy | null = null;
  let cloudDb: Database | null = null;
  const out: string[] = [];
  try {
    const cloudUrl = await pgs.fresh();
    cloudDb = await openDatabase({ databaseUrl: cloudUrl });
    // the first migrates the database; the second then starts on it
    cloud.push(await ServeProcess.start(['--role', 'cloud', '--database-url', cloudUrl]));
    cloud.push(await ServeProcess.start(['--role', 'cloud', '--database-url', cloudUrl]));
    balancer = await TcpProxy.start(cloud.map((c) => c.port));
    const t0 = performance.now();
    const services: Services[] = [];
    for (let i = 0; i <= HUBS; i++) {
      const hub = await makeHub(`venue-${i + 1}`);
      // These 51 hubs share this one thread and one disk, which no two real hubs do. With the
      // hub's synchronous=FULL every commit waits for the disk (5 ms here at load 7, far more
      // when the box is busy), about three commits per order (the order, the push's cursor,
      // the pulled page): 50 hubs' waits in a row held this thread most of each second, and the
      // lag measured the bench. NORMAL (WAL) runs the same statements and commits without
      // waiting for the disk; each hub's own wait stays on its own machine.
      await sql`pragma synchronous = NORMAL`.execute(hub.database.db);
      const s = createServer({ database: hub.database, logger: silentLogger, config: { role: 'hub' } }).services;
      await linkHub(s, balancer.url, (await createInvite(cloudDb.db, Date.now(), null)).code);
      await writeService(hub, { orders: ORDERS_PER_HUB, reservations: 10, days: 2 });
      hubs.push(hub);
      services.push(s);
    }
    const counts = await Promise.all(hubs.map((h) => changeCount(h)));
    const unsentOf = async (i: number) => counts[i].top - (await cursorOf(cloudDb!, hubs[i].restaurantId));
    out.push(`${HUBS + 1} hubs linked to two cloud processes, ${ORDERS_PER_HUB} orders each written offline (built in ${((performance.now() - t0) / 1000).toFixed(0)} s)`);

    const backIn = async (which: number[]) => {
      const unsent = (await Promise.all(which.map(unsentOf))).reduce((a, b) => a + b, 0);
      const start = performance.now();
      const per: number[] = [];
      for (const i of which) {
        const c = new SyncClient(services[i]);
        c.start();
        clients.push(c);
      }
      await Promise.all(
        which.map(async (i) => {
          await poll(`hub ${i + 1} at the cloud`, async () => (await cursorOf(cloudDb!, hubs[i].restaurantId)) >= counts[i].top, 900_000, 100);
          per.push(performance.now() - start);
        }),
      );
      const total = (performance.now() - start) / 1000;
      return { unsent, total, rate: unsent / total, per };
    };
    const one = await backIn([0]);
    out.push(`  1 hub alone: ${one.unsent} entries in ${one.total.toFixed(1)} s (${Math.round(one.rate)} entries/s)`);
    const many = await backIn(hubs.slice(1).map((_, k) => k + 1));
    out.push(
      `  ${HUBS} hubs at once: ${many.unsent} entries in ${many.total.toFixed(1)} s (${Math.round(many.rate)} entries/s, ${(many.rate / one.rate).toFixed(2)}× one hub's rate); per hub: first ${(Math.min(...many.per) / 1000).toFixed(1)} s, p50 ${(percentile(many.per, 50) / 1000).toFixed(1)} s, last ${(Math.max(...many.per) / 1000).toFixed(1)} s → ${many.rate >= one.rate ? 'PASS' : 'FAIL'} (concurrency must not lower entries/s)`,
    );

    // online: every hub takes an order a second; lag from its commit to the row in the cloud
    const waiting = new Map<string, number>();
    const lags: number[] = [];
    // the hub's commit (wall clock) → the cloud's commit of the row (pg_xact_commit_timestamp):
    // the lag without the watcher's polling
    const committedAt = new Map<string, number>();
    let writtenInWindow = 0;
    let windowClosed = false;
    // orders the cloud committed within the window (wall clock): the work the CPU figures paid for
    let inWindowAtCloud = 0;
    let wall0 = Infinity;
    let wall1 = Infinity;
    const toCloudCommit: number[] = [];
    let writing = true;
    let writersDone = false; // as above: the watcher stops only after the writers
    const writer = async (i: number) => {
      const begin = performance.now() + Math.random() * 1000;
      await new Promise((r) => setTimeout(r, begin - performance.now()));
      const ctx = { nodeTag: '', fleet: null, hooks: services[i].registry.hooks };
      for (let n = 0; writing; n++) {
        const { order } = await services[i].tx.run((trx) =>
          createOrder(trx, { restaurantId: hubs[i].restaurantId, livemode: true, now: Date.now() }, ctx, {
            type: 'takeout',
            items: [{ menu_item: hubs[i].items[n % hubs[i].items.length], quantity: 1 }],
            source: 'pos',
            status: 'placed',
            customer_name: `Online ${n}`,
          }),
        );
        waiting.set(order.id, performance.now());
        committedAt.set(order.id, Date.now());
        if (!windowClosed) writtenInWindow++;
        const wait = begin + (n + 1) * 1000 - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      }
    };
    const watcher = async () => {
      while (!writersDone || waiting.size > 0) {
        const ids = [...waiting.keys()];
        for (let k = 0; k < ids.length; k += 500) {
          const seen = await cloudDb!.db
            .selectFrom('orders')
            .select(['id', sql<string>`(extract(epoch from pg_xact_commit_timestamp(xmin)) * 1000)::bigint`.as('at')])
            .where('id', 'in', ids.slice(k, k + 500))
            .execute();
          const now = performance.now();
          for (const { id, at } of seen) {
            lags.push(now - waiting.get(id)!);
            if (at !== null) toCloudCommit.push(Number(at) - committedAt.get(id)!);
            if (at !== null && Number(at) >= wall0 && Number(at) <= wall1) inWindowAtCloud++;
            waiting.delete(id);
          }
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    const online = hubs.slice(1).map((_, k) => k + 1);
    // what each process spends in the window, and how late this process's own loop runs: its
    // hubs' sync clients, their SQLite and the balancer all run on it
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const pids = async () => [...cloud.map((c) => c.child.pid!), ...(await sql<{ pid: number }>`select pid from pg_stat_activity`.execute(cloudDb!.db)).rows.map((r) => r.pid)];
    const xacts = async () =>
      Number((await sql<{ n: string }>`select xact_commit + xact_rollback as n from pg_stat_database where datname = current_database()`.execute(cloudDb!.db)).rows[0].n);
    const cpuAt = async () => ({ self: process.cpuUsage(), procs: new Map((await pids()).map((p) => [p, cpuSeconds(p)])), xacts: await xacts() });
    const cpu0 = await cpuAt();
    if (process.env.BENCH_PG_STATEMENTS) await sql`select pg_stat_statements_reset()`.execute(cloudDb.db);
    const mono0 = process.hrtime.bigint() / 1000n;
    wall0 = Date.now();
    const load0 = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    const writers = online.map(writer);
    const watching = watcher();
    await new Promise((r) => setTimeout(r, LAG_HUB_SECONDS * 1000));
    const mono1 = process.hrtime.bigint() / 1000n;
    wall1 = Date.now();
    windowClosed = true;
    const cpu1 = await cpuAt();
    const load1 = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    loop.disable();
    writing = false;
    await Promise.all(writers);
    writersDone = true;
    await Promise.race([watching, new Promise((r) => setTimeout(r, 30_000))]);
    const p99 = percentile(lags, 99);
    out.push(
      `  online, ${online.length} hubs × 1 order/s for ${LAG_HUB_SECONDS} s, hub commit → row in the cloud: p50 ${percentile(lags, 50).toFixed(0)} ms, p99 ${p99.toFixed(0)} ms, max ${Math.max(...lags).toFixed(0)} ms (${lags.length} orders${waiting.size ? `, ${waiting.size} never arrived` : ''}) → ${p99 < 1000 && waiting.size === 0 ? 'PASS' : 'FAIL'} (target p99 < 1 s)`,
    );
    out.push(
      `  hub commit → the cloud's commit: p50 ${percentile(toCloudCommit, 50).toFixed(0)} ms, p99 ${percentile(toCloudCommit, 99).toFixed(0)} ms (${toCloudCommit.length} orders)`,
    );
    // (a PostgreSQL backend that came and went in the window is not counted)
    const spent = (pid: number) => Math.max(0, (cpu1.procs.get(pid) ?? 0) - (cpu0.procs.get(pid) ?? 0));
    const pgPids = [...cpu1.procs.keys()].filter((p) => !cloud.some((c) => c.child.pid === p));
    const self = (cpu1.self.user - cpu0.self.user + cpu1.self.system - cpu0.self.system) / 1e6;
    const cloudCpu = cloud.map((c) => spent(c.child.pid!));
    const pgCpu = pgPids.reduce((a, p) => a + spent(p), 0);
    // what the box must do per order, whatever else runs on it: compare builds by these, per
    // order the cloud committed in the window (a run that fell behind wrote more than it shipped)
    const n = Math.max(1, inWindowAtCloud);
    const per = (x: number) => `${((x * 1000) / n).toFixed(1)} ms`;
    out.push(
      `  CPU in the ${LAG_HUB_SECONDS} s online (${writtenInWindow} orders written, ${inWindowAtCloud} committed at the cloud): the hubs' process ${self.toFixed(1)} s, cloud ${cloudCpu.map((x) => x.toFixed(1)).join(' + ')} s, PostgreSQL ${pgCpu.toFixed(1)} s; per order at the cloud: hubs ${per(self)}, cloud ${per(cloudCpu[0] + cloudCpu[1])}, PostgreSQL ${per(pgCpu)}, ${((cpu1.xacts - cpu0.xacts) / n).toFixed(1)} PostgreSQL transactions; load ${load0} → ${load1}`,
      `  the hubs' process's event loop late by p50 ${(loop.percentile(50) / 1e6).toFixed(0)} ms, p99 ${(loop.percentile(99) / 1e6).toFixed(0)} ms, max ${(loop.max / 1e6).toFixed(0)} ms; window ${mono0}–${mono1} µs (monotonic, for slicing profiles)`,
    );
    if (process.env.BENCH_PG_STATEMENTS) {
      const top = await sql<{ calls: string; ms: number; query: string }>`select calls, total_exec_time as ms, query from pg_stat_statements order by calls desc limit 25`.execute(cloudDb.db);
      out.push(`  statements per order at the cloud (calls, exec ms):`);
      for (const r of top.rows) out.push(`    ${(Number(r.calls) / n).toFixed(2)}  ${(r.ms / n).toFixed(2)} ms  ${r.query.replace(/\s+/g, ' ').slice(0, 150)}`);
    }
    out.push(`  the balancer's connections per process: ${balancer.perUpstream.join(' / ')}`);
    return out;
  } finally {
    await Promise.all(clients.map((c) => c.stop()));
    await Promise.all(cloud.map((c) => c.stop()));
    await balancer?.close();
    await cloudDb?.close();
    for (const h of hubs) {
      await h.database.close();
      fs.rmSync(h.dir, { recursive: true, force: true });
    }
    await pgs.stop();
  }
}

export const scenarios: BenchScenario[] = [
  {
    name: 'sync: a week offline, then online lag both ways',
    target: 'a week (≈10,000 orders) at the cloud < 10 s after the hub is back; online lag p99 < 2 s each way at 10 orders/s',
    custom: () => weekAndLag(),
  },
  {
    name: `sync: two cloud processes ingesting 1 hub, then ${HUBS} hubs at once, then ${HUBS} hubs online`,
    target: 'entries/s with 50 hubs ≥ with 1; online lag p99 < 1 s at 50 hubs × 1 order/s',
    custom: () => manyHubs(),
  },
];
