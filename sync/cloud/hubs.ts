import type { Executor } from '../../server/db/records.ts';
import type { SyncHubsTable } from '../../server/db/schema/sync.ts';
import { ApiError } from '../../server/errors.ts';
import type { Services } from '../../server/services.ts';
import { hashSecret } from '../credentials.ts';
import { forgetHubOrigins } from '../../server/http/cors.ts';
import { identityAndHead, identityAndHeadColumns } from '../../server/db/log-positions.ts';
import { MAX_QUEUE_MS, PROTOCOL_VERSION, type CloudPosition } from '../protocol.ts';

/** A linked hub as the cloud keeps it. */
export type Hub = SyncHubsTable;

export const lockHub = async (trx: Executor, id: string, dialect: string): Promise<Hub> => {
  let q = trx.selectFrom('sync_hubs').selectAll().where('id', '=', id);
  if (dialect === 'postgres') q = q.forUpdate();
  return (await q.executeTakeFirstOrThrow()) as Hub;
};

/**
 * The hub a request comes from, by its credential (`Authorization: Bearer …`, never a URL:
 * proxies log those), with the cloud's log identity and head read in the same statement (a
 * pull answers them).
 */
export async function authHub(services: Services, authorization: string): Promise<{ hub: Hub; at: { origin: string; head: number } }> {
  const m = /^Bearer (\S+)$/.exec(authorization);
  if (!m) throw new ApiError('sync_credential_invalid', 'Send the hub credential as Authorization: Bearer ….');
  const node = identityAndHeadColumns(services.db);
  const row = await services.db.selectFrom('sync_hubs').selectAll().select([node.origin, node.head]).where('credential_hash', '=', hashSecret(m[1])).executeTakeFirst();
  if (!row || row.revoked_at !== null) throw new ApiError('sync_credential_invalid', 'This hub credential is unknown or was revoked.');
  const { node_origin, node_head, ...hub } = row as typeof row & { node_head: unknown };
  return { hub: hub as Hub, at: { origin: node_origin, head: Number(node_head ?? 0) } };
}

export async function position(services: Services, hub: Hub, known?: { origin: string; head: number }): Promise<CloudPosition> {
  // one round trip for both: every push and every pull answers them
  const { origin, head } = known ?? (await identityAndHead(services.db));
  return {
    protocol: PROTOCOL_VERSION,
    cloud_epoch: origin,
    restaurant_id: hub.restaurant_id,
    cursor: Number(hub.cursor),
    cursor_op_id: hub.cursor_op_id,
    head,
    now: services.clock.now(),
    queue_ms: MAX_QUEUE_MS,
  };
}

/**
 * How far the hub holds the log (compaction's watermark), and when it was last heard of. A
 * raise waits for no one: the hub's row is locked by each of its pushes, and a pull that
 * queued behind one sent nothing (not even its heartbeat) and held a pooled connection, while
 * its update, granted between two pushes, held up the next. A raise skipped is made by the
 * next; a lower position (a hub restored from a backup pulls again) always waits and lands.
 */
export async function notePulled(services: Services, hub: Hub, through: number, seenAt?: number): Promise<void> {
  const update = services.db.updateTable('sync_hubs').set({ pulled_through: through, ...(seenAt !== undefined ? { last_seen_at: seenAt } : {}) });
  if (through < Number(hub.pulled_through)) {
    await update.where('id', '=', hub.id).execute();
    return;
  }
  let raised = services.db.selectFrom('sync_hubs').select('id').where('id', '=', hub.id).where('pulled_through', '<=', through);
  if (services.dialect === 'postgres') raised = raised.forUpdate().skipLocked();
  await update.where('id', '=', raised).execute();
}

/**
 * A refusal of an authenticated hub is kept on its row, so the cloud's status shows it too;
 * it is written after the refused work rolled back.
 */
export async function refusing<T>(services: Services, hub: Hub, work: () => Promise<T>): Promise<T> {
  try {
    const out = await work();
    if (hub.last_error) await services.db.updateTable('sync_hubs').set({ last_error: null }).where('id', '=', hub.id).execute();
    return out;
  } catch (err) {
    if (err instanceof ApiError && err.status < 500) {
      await services.db.updateTable('sync_hubs').set({ last_error: `${err.code}: ${err.message}` }).where('id', '=', hub.id).execute();
    }
    throw err;
  }
}

/** The hub was heard of now. */
export const markSeen = (services: Services, hub: Hub) =>
  services.db.updateTable('sync_hubs').set({ last_seen_at: Math.floor(services.clock.now() / 1000) }).where('id', '=', hub.id).execute();

/** The origins the hub's staff devices use: the cloud answers CORS for those (docs/contributors/two-homes.md). */
export async function saveHubOrigins(services: Services, hub: Hub, asked: string[]): Promise<string[]> {
  const origins = [...new Set(asked.map((o) => o.toLowerCase()))].sort();
  await services.db.updateTable('sync_hubs').set({ hub_origins: JSON.stringify(origins) }).where('id', '=', hub.id).execute();
  forgetHubOrigins(services);
  return origins;
}

export function cursorMismatch(h: Hub, reason: 'epoch' | 'gap' | 'diverged' | 'ahead', head?: number): ApiError {
  const why = {
    epoch: 'the hub changed its log identity: say hello first',
    gap: 'the batch starts after a position the cloud does not hold yet',
    diverged: 'the hub’s log differs from what the cloud holds at the same position (restored from a backup?)',
    ahead: 'the hub asks for cloud positions this cloud does not have (the cloud was restored?)',
  }[reason];
  return new ApiError('sync_cursor_mismatch', `Out of step: ${why}. Cloud cursor ${h.cursor}${head === undefined ? '' : `, head ${head}`}.`, reason);
}

/**
 * This process's commits of one restaurant as a long poll follows them: `next` resolves at
 * once when one came since the last read (`seen`), else at the next one or after `ms`
 * (another process's commits are polled). Commits of other restaurants do not count: woken
 * by every commit, each waiting pull read the log again at every other restaurant's push.
 */
export function countCommits(services: Services, restaurantId: string) {
  let wake: (() => void) | null = null;
  const c = {
    count: 0,
    seen: 0,
    off: services.tx.onCommit((scopes) => {
      if (scopes && !scopes.has(restaurantId)) return;
      c.count++;
      wake?.();
    }),
    next(ms: number): Promise<void> {
      if (c.count !== c.seen) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const timer = setTimeout(done, Math.max(0, ms));
        function done() {
          clearTimeout(timer);
          wake = null;
          resolve();
        }
        wake = done;
      });
    },
  };
  return c;
}
