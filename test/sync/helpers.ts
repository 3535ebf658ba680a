import type { Kysely } from 'kysely';
import type { DB } from '../../server/db/schema.ts';
import { insertRecords } from '../../server/db/records.ts';
import { newId, PREFIXES } from '../../server/ids.ts';
import { ApiClient, startHub, type TestHub } from '../helpers/server.ts';
import { TcpProxy } from '../helpers/tcp-proxy.ts';
import { createInvite } from '../../sync/cloud/link.ts';
import { linkHub } from '../../sync/link.ts';
import { compareSides, type SideSummary } from '../../sync/audit.ts';
import { callCloud, credentialOf, readLink } from '../../sync/hub.ts';
import { PROTOCOL_VERSION } from '../../sync/protocol.ts';
import type { ManualClock } from '../../server/clock.ts';
import type { Dialect } from '../../server/db/database.ts';
import { SyncClient } from '../../sync/hub.ts';
import { until } from '../helpers/until.ts';

export interface Pair {
  hub: TestHub;
  cloud: TestHub;
  /** the hub's restaurant, as an integration sees it on the cloud (same key) */
  cloudApi: ApiClient;
  close(): Promise<void>;
}

/**
 * A hub on SQLite (or `hubDialect`) and a cloud on PostgreSQL (which serves another restaurant
 * too), not yet linked.
 */
export async function startPair(
  opts: { hubClock?: ManualClock; cloudClock?: ManualClock; hubDataDir?: string; hubDialect?: Dialect; cloudUrlFor?: (url: string) => string } = {},
): Promise<Pair & { link(): Promise<Awaited<ReturnType<typeof linkHub>>> }> {
  const cloud = await startHub('postgres', { config: { role: 'cloud', webhooks: { allowPrivateTargets: true } }, slug: 'another-venue', clock: opts.cloudClock });
  const hub = await startHub(opts.hubDialect ?? 'sqlite', { config: { role: 'hub' }, clock: opts.hubClock, dataDir: opts.hubDataDir });
  const cloudApi = new ApiClient(cloud.url, hub.keys.secret);
  return {
    hub,
    cloud,
    cloudApi,
    async link() {
      const { code } = await createInvite(cloud.server.services.db, cloud.clock.now(), null);
      return linkHub(hub.server.services, opts.cloudUrlFor?.(cloud.url) ?? cloud.url, code);
    },
    async close() {
      await hub.close();
      await cloud.close();
    },
  };
}

/** startPair, the hub reaching the cloud through a TCP proxy the test can cut (closed with the pair). */
export async function startPairBehindProxy() {
  let via = '';
  const pair = await startPair({ cloudUrlFor: () => via });
  const proxy = await TcpProxy.start(Number(new URL(pair.cloud.url).port));
  via = proxy.url;
  return {
    ...pair,
    proxy,
    async close() {
      await proxy.close();
      await pair.close();
    },
  };
}

/** The convergence audit, as `comanda sync audit` runs it. */
export async function audit(hub: TestHub) {
  const link = (await readLink(hub.server.services.db))!;
  return compareSides(hub.server.services.db, link.restaurant_id, (ask) =>
    callCloud<SideSummary>(link.cloud_url, '/audit', { protocol: PROTOCOL_VERSION, ...ask }, { credential: credentialOf(hub.server.services, link) }),
  );
}

/** The hub stops syncing (as if the line were down); its service goes on. */
export async function goOffline(hub: TestHub): Promise<void> {
  await hub.server.services.sync!.stop();
}

/** The hub's sync starts again (the line is back). */
export function goOnline(hub: TestHub): void {
  const client = new SyncClient(hub.server.services);
  hub.server.services.sync = client;
  client.start();
}

/** Waits until the hub has nothing left to push or pull and the audit finds no difference. */
export async function converged(p: Pair, ms = 20_000) {
  let last: Awaited<ReturnType<typeof audit>> | undefined;
  // the caller asserts ok with the last report beside it: what still differed
  const ok = await until(
    'the hub converged with the cloud',
    async () => {
      const s = (await p.hub.api.get('/v1/sync/status')).body;
      if (!s.connected || s.pending_push !== 0 || s.pending_pull !== 0) return false;
      last = await audit(p.hub);
      return last.in_sync;
    },
    ms,
  ).then(
    () => true,
    () => false,
  );
  return { ok, report: last };
}

/**
 * How many entries a node's change log holds: "nothing was applied" leaves it as it was. (Not
 * the log head: on PostgreSQL a rolled-back unit has spent its positions all the same.)
 */
export async function logEntries(db: Kysely<DB>): Promise<number> {
  return Number((await db.selectFrom('change_log').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
}

/** `total` new tables written on a hub in units of a thousand: a backlog as a week offline makes one. */
export async function writeTables(hub: TestHub, total: number): Promise<void> {
  const services = hub.server.services;
  const now = Math.floor(hub.clock.now() / 1000);
  for (let n = 0; n < total; n += 1000) {
    await services.tx.run((trx) =>
      insertRecords(
        trx,
        'tables',
        Array.from({ length: Math.min(1000, total - n) }, (_, i) => ({
          id: newId(PREFIXES.table),
          restaurant_id: hub.restaurant.id,
          number: 1000 + n + i,
          capacity: 4,
          min_capacity: 1,
          zone: 'Terrace',
          status: 'available' as const,
          is_active: 1,
          plan_x: null,
          plan_y: null,
          plan_width: null,
          plan_height: null,
          shape: null,
          created: now,
          updated: now,
        })),
      ),
    );
  }
}

/** A raw sync request, as a hub (or someone holding its credential) sends it: status and JSON body. */
export async function sendSync(url: string, path: string, body: unknown, credential: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${url}/sync/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${credential}` },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}
