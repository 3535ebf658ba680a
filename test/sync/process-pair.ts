import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { expect } from 'vitest';
import { openDatabase, type Database } from '../../server/db/database.ts';
import type { DB } from '../../server/db/schema.ts';
import { comanda, ServeProcess, until } from '../helpers/comanda-process.ts';
import { freshDatabase } from '../helpers/db.ts';
import { ApiClient } from '../helpers/server.ts';
import { TcpProxy } from '../helpers/tcp-proxy.ts';

/**
 * A venue as it runs: a cloud (`comanda serve --role cloud`, PostgreSQL) and a hub (`comanda
 * init` + `comanda serve`, SQLite), each its own process, linked with the CLI through a TCP
 * proxy that plays the internet (`proxy.cut()` / `proxy.restore()`). `hub` and `cloud` may be
 * replaced by a test that kills and restarts one.
 */
export interface ProcessPair {
  dir: string;
  cloudDb: Database;
  hubDb: Database;
  cloud: ServeProcess;
  hub: ServeProcess;
  proxy: TcpProxy;
  restaurantId: string;
  key: string;
  /** the arguments `cloud` was started with (to start it again on its port) */
  cloudArgs: string[];
  /** the environment `hub` was started with (a clock-step preload, say) */
  hubEnv: NodeJS.ProcessEnv;
  hubApi(): ApiClient;
  cloudApi(): ApiClient;
  /** Both logs fully exchanged: the cloud acknowledged all of the hub's changes, the hub pulled all of the cloud's. */
  exchanged(): Promise<boolean>;
  /** Waits until the logs are exchanged and `comanda sync audit` finds no difference; its report. */
  converged(deadlineMs?: number): Promise<any>;
  /** What a wait for `what` that gave up reports (for `until`): how far each side got, and whether the hub still talked to the cloud. */
  stalled(what: string): () => Promise<string>;
  hubEpoch(): Promise<string>;
  maxSeq(db: Kysely<DB>, where: (q: any) => any): Promise<number>;
  cloudCursor(): Promise<number>;
  close(opts?: { converge?: boolean }): Promise<void>;
}

/**
 * Where a hub's line stands, for a wait that gave up: its link (connected, last error, cursors)
 * and the proxy's armed cuts and requests. A hub still talking to the cloud means a test that
 * only waits; one that stopped, a sync bug.
 */
export async function lineState(hubDb: Database, proxy: TcpProxy): Promise<string> {
  const link = await hubDb.db
    .selectFrom('sync_link')
    .select(['connected', 'last_synced_at', 'last_error', 'push_cursor', 'pull_cursor', 'cloud_epoch', 'refused', 'repair_state'])
    .executeTakeFirst();
  return `the hub's link ${JSON.stringify(link)}; ${proxy.describe()}`;
}

/** The body of an answer that succeeded; a refusal fails the setup with what the server said (for `beforeLink`). */
export async function ok(r: Promise<{ status: number; body: any }>): Promise<any> {
  const res = await r;
  if (res.status >= 300) throw new Error(JSON.stringify(res.body));
  return res.body;
}

/**
 * Starts both processes and the proxy; `beforeLink` runs on the hub before it is linked (its
 * menu, say), so the link's first push carries it.
 */
export async function startProcessPair(opts: { name: string; cloudArgs?: string[]; hubEnv?: NodeJS.ProcessEnv; beforeLink?: (hubApi: ApiClient) => Promise<void> }): Promise<ProcessPair> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-syncproc-'));
  const cloudDb = await freshDatabase('postgres');
  const cloudArgs = ['--role', 'cloud', '--database-url', cloudDb.url!, ...(opts.cloudArgs ?? [])];
  const slug = `${opts.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${randomBytes(3).toString('hex')}`;
  const [cloud, init] = await Promise.all([ServeProcess.start(cloudArgs), comanda('init', '--data-dir', dir, '--name', opts.name, '--slug', slug)]);
  const restaurantId: string = init.restaurant.id;
  const key: string = init.keys.secret;
  const hubEnv = opts.hubEnv ?? {};
  const hub = await ServeProcess.start(['--data-dir', dir], { env: hubEnv });
  const proxy = await TcpProxy.start(cloud.port);
  const hubDb = await openDatabase({ dataDir: dir });

  const pair: ProcessPair = {
    dir,
    cloudDb,
    hubDb,
    cloud,
    hub,
    proxy,
    restaurantId,
    key,
    cloudArgs,
    hubEnv,
    hubApi: () => new ApiClient(pair.hub.url, key),
    cloudApi: () => new ApiClient(pair.cloud.url, key),
    hubEpoch: async () => (await hubDb.db.selectFrom('node_state').select('origin').where('id', '=', 1).executeTakeFirstOrThrow()).origin,
    maxSeq: async (db, where) =>
      Number((await where(db.selectFrom('change_log').select((eb) => eb.fn.max('seq').as('m')).where('restaurant_id', '=', restaurantId)).executeTakeFirst())?.m ?? 0),
    cloudCursor: async () =>
      Number((await cloudDb.db.selectFrom('sync_hubs').select('cursor').where('restaurant_id', '=', restaurantId).where('revoked_at', 'is', null).executeTakeFirstOrThrow()).cursor),
    async exchanged() {
      const epoch = await pair.hubEpoch();
      const link = await hubDb.db.selectFrom('sync_link').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
      const ownTop = await pair.maxSeq(hubDb.db, (q) => q.where('origin', '=', epoch));
      const cloudTop = await pair.maxSeq(cloudDb.db, (q) => q.where('origin', '!=', epoch));
      return Number(link.push_cursor) >= ownTop && Number(link.pull_cursor) >= cloudTop && (await pair.cloudCursor()) >= ownTop;
    },
    async converged(deadlineMs = 90_000) {
      const end = Date.now() + deadlineMs;
      let report: any = null;
      for (;;) {
        await until(pair.stalled('hub and cloud exchanged their changes'), () => pair.exchanged(), Math.max(1000, end - Date.now()));
        report = await comanda('sync', 'audit', '--data-dir', dir);
        if (report.in_sync || Date.now() > end) break;
      }
      expect(report.differences).toEqual([]);
      expect(report.in_sync).toBe(true);
      expect(report.tables.find((t: any) => t.table === 'orders')).toMatchObject({ in_sync: true });
      return report;
    },
    stalled: (what) => async () => {
      const epoch = await pair.hubEpoch();
      const ownTop = await pair.maxSeq(hubDb.db, (q) => q.where('origin', '=', epoch));
      const status = (await pair.hubApi().get('/v1/sync/status')).body;
      return `${what}: ${await lineState(hubDb, proxy)}; the hub's own top ${ownTop}, the cloud's cursor ${await pair.cloudCursor()}; the hub's status ${JSON.stringify(status)}; its last log lines ${pair.hub.log.slice(-10).join(' | ')}`;
    },
    async close(opts: { converge?: boolean } = {}) {
      // every test that links a hub leaves the two sides the same (issue 45): a row that
      // diverges for good (a derived column each side computes its own way) fails here; a suite
      // whose last test leaves the hub refused by the cloud on purpose says so with converge: false
      let unconverged: unknown = null;
      if (opts.converge !== false && linked && pair.hub?.running && pair.cloud?.running) {
        proxy.restore();
        await pair.converged(60_000).catch((err: unknown) => (unconverged = err));
      }
      await pair.hub?.kill9();
      await pair.cloud?.kill9();
      await proxy.close();
      await hubDb.close();
      await cloudDb.close();
      fs.rmSync(dir, { recursive: true, force: true });
      if (unconverged) throw unconverged;
    },
  };
  let linked = false;
  const pairLinked = () => (linked = true);

  try {
    await opts.beforeLink?.(pair.hubApi());
    // the operator's two steps: a code on the cloud, the link on the hub (through the "internet")
    const invite = await comanda('sync', 'invite', '--database-url', cloudDb.url!);
    expect(invite.code).toMatch(/^[\w-]{20,}$/);
    const linked = await comanda('sync', 'link', '--data-dir', dir, '--cloud-url', proxy.url, '--code', invite.code);
    expect(linked).toMatchObject({ linked: true, mode: 'push', restaurant_id: restaurantId, cloud_url: proxy.url });
    expect(linked.pushed).toBeGreaterThan(5);
    pairLinked();
  } catch (err) {
    await pair.close();
    throw err;
  }
  return pair;
}
