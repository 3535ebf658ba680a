import Router from '@koa/router';
import type { Context } from 'koa';
import type { Kysely } from 'kysely';
import type { Executor } from '../server/db/records.ts';
import type { DB } from '../server/db/schema.ts';
import type { SyncHubsTable } from '../server/db/schema/sync.ts';
import { ApiError } from '../server/errors.ts';
import { newId, PREFIXES } from '../server/ids.ts';
import type { Services } from '../server/services.ts';
import { applyChanges, CheckedChanges } from './apply.ts';
import { auditRows, auditSide } from './audit.ts';
import { countLog, readLog } from './changes.ts';
import { hashSecret, INVITE_TTL_SECONDS, makeCredential, makeLinkCode } from './credentials.ts';
import { currentEpoch, rotateEpoch } from './epoch.ts';
import { MAX_REPAIR_ROWS, mergeRows, repairRequest, rowsWithClocks, saveRepairState } from './repair.ts';
import { auditRequest, helloRequest, linkRequest, MAX_QUEUE_MS, pingRequest, PROTOCOL_VERSION, pullRequest, pushRequest, slugRequest, originsRequest, unlinkRequest, type CloudPosition, type WireChange } from './protocol.ts';
import { readSyncBody, sendJson, streamJson } from './wire.ts';
import { forgetHubOrigins } from '../server/http/cors.ts';
import { MAX_AHEAD_MS, parseHlc } from '../server/db/hlc.ts';
import { changeSlug } from '../server/domain/restaurants/slugs.ts';
import { identityAndHead, identityAndHeadColumns, logHead } from '../server/db/log-positions.ts';
import { monotonicMs } from '../server/clock.ts';

type Hub = SyncHubsTable;

/** A one-time link code (24 h). With a restaurant: a replacement hub takes that restaurant over. */
export async function createInvite(db: Kysely<DB>, nowMs: number, restaurantId: string | null): Promise<{ code: string; expires: number }> {
  if (restaurantId) {
    const r = await db.selectFrom('restaurants').select('id').where('id', '=', restaurantId).executeTakeFirst();
    if (!r) throw new ApiError('resource_missing', `No restaurant ${restaurantId} on this cloud.`, 'restaurant');
  }
  const code = makeLinkCode();
  const expires = Math.floor(nowMs / 1000) + INVITE_TTL_SECONDS;
  await db.insertInto('sync_invites').values({ code_hash: hashSecret(code), restaurant_id: restaurantId, expires, used_at: null, created: Math.floor(nowMs / 1000) }).execute();
  return { code, expires };
}

const lockHub = async (trx: Executor, id: string, dialect: string): Promise<Hub> => {
  let q = trx.selectFrom('sync_hubs').selectAll().where('id', '=', id);
  if (dialect === 'postgres') q = q.forUpdate();
  return (await q.executeTakeFirstOrThrow()) as Hub;
};

/** The hub's credential, from `Authorization: Bearer …` (never a URL: proxies log those). */
async function authHub(ctx: Context, services: Services): Promise<Hub> {
  return (await authHubAt(ctx, services)).hub;
}

/** authHub, with the cloud's log identity and head read in the same statement (a pull answers them). */
async function authHubAt(ctx: Context, services: Services): Promise<{ hub: Hub; at: { origin: string; head: number } }> {
  const m = /^Bearer (\S+)$/.exec(ctx.get('authorization'));
  if (!m) throw new ApiError('sync_credential_invalid', 'Send the hub credential as Authorization: Bearer ….');
  const node = identityAndHeadColumns(services.db);
  const row = await services.db.selectFrom('sync_hubs').selectAll().select([node.origin, node.head]).where('credential_hash', '=', hashSecret(m[1])).executeTakeFirst();
  if (!row || row.revoked_at !== null) throw new ApiError('sync_credential_invalid', 'This hub credential is unknown or was revoked.');
  const { node_origin, node_head, ...hub } = row as typeof row & { node_head: unknown };
  return { hub: hub as Hub, at: { origin: node_origin, head: Number(node_head ?? 0) } };
}

async function position(services: Services, hub: Hub, known?: { origin: string; head: number }): Promise<CloudPosition> {
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
async function notePulled(services: Services, hub: Hub, through: number, seenAt?: number): Promise<void> {
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
async function refusing<T>(services: Services, hub: Hub, work: () => Promise<T>): Promise<T> {
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

/**
 * The cloud's side of sync: link, hello, push, pull, audit under /sync/v1. `stop()` ends the
 * long polls held open, so a closing server is not kept waiting on its hubs.
 */
export function cloudRouter(services: Services): { router: Router; stop(): void } {
  const router = new Router({ prefix: '/sync/v1' });
  const closing = new AbortController();
  const seen = (hub: Hub) =>
    services.db.updateTable('sync_hubs').set({ last_seen_at: Math.floor(services.clock.now() / 1000) }).where('id', '=', hub.id).execute();

  router.post('/link', async (ctx) => {
    const body = await readSyncBody(ctx, linkRequest);
    const now = services.clock.now();
    const credential = makeCredential();
    const out = await services.tx.run(async (trx) => {
      const invite = await trx.selectFrom('sync_invites').selectAll().where('code_hash', '=', hashSecret(body.code)).executeTakeFirst();
      // spend the code first: a code raced by two hubs links one of them
      const spent =
        invite &&
        invite.used_at === null &&
        invite.expires > now / 1000 &&
        Number((await trx.updateTable('sync_invites').set({ used_at: Math.floor(now / 1000) }).where('code_hash', '=', invite.code_hash).where('used_at', 'is', null).executeTakeFirst()).numUpdatedRows) === 1;
      if (!invite || !spent) throw new ApiError('sync_code_invalid', 'This link code is wrong, expired or already used. Make a new one with `comanda sync invite`.', 'code');
      let restaurantId: string;
      let mode: 'push' | 'pull';
      if (invite.restaurant_id) {
        if (body.restaurant_id && body.restaurant_id !== invite.restaurant_id) {
          throw new ApiError('sync_restaurant_mismatch', 'This code takes over another restaurant than the one this hub holds.', 'restaurant_id');
        }
        restaurantId = invite.restaurant_id;
        mode = 'pull';
        // the hub it replaces (the old PC) can no longer sync
        await trx.updateTable('sync_hubs').set({ revoked_at: Math.floor(now / 1000) }).where('restaurant_id', '=', restaurantId).where('revoked_at', 'is', null).execute();
      } else {
        if (!body.restaurant_id) throw new ApiError('parameter_missing', 'A new link brings the hub’s restaurant: restaurant_id is required.', 'restaurant_id');
        restaurantId = body.restaurant_id;
        mode = 'push';
        const taken = await trx
          .selectFrom('restaurants')
          .select('id')
          .where((eb) => eb.or([eb('id', '=', restaurantId), ...(body.slug ? [eb('slug', '=', body.slug)] : [])]))
          .executeTakeFirst();
        const linked = await trx.selectFrom('sync_hubs').select('id').where('restaurant_id', '=', restaurantId).where('revoked_at', 'is', null).executeTakeFirst();
        if (taken || linked) {
          throw new ApiError('sync_restaurant_exists', 'This cloud already has this restaurant (or its slug): link with a code from `comanda sync invite --restaurant …`.', 'restaurant_id');
        }
      }
      const hub: Hub = {
        id: newId(PREFIXES.syncHub),
        restaurant_id: restaurantId,
        credential_hash: hashSecret(credential),
        epoch: body.epoch,
        cursor: 0,
        cursor_op_id: null,
        pulled_through: 0,
        hub_pending: 0,
        resync: 0,
        last_seen_at: Math.floor(now / 1000),
        last_error: null,
        revoked_at: null,
        repair_state: 'unknown',
      repair_checked_at: null,
      repaired_rows: 0,
      repair_unconverged: null,
      created: Math.floor(now / 1000),
      hub_origins: null,
      };
      await trx.insertInto('sync_hubs').values(hub).execute();
      return { hub, mode };
    });
    sendJson(ctx, { object: 'sync_link', hub_id: out.hub.id, credential, mode: out.mode, ...(await position(services, out.hub)) });
  });

  router.post('/hello', async (ctx) => {
    const hub = await authHub(ctx, services);
    const body = await refusing(services, hub, () => readSyncBody(ctx, helloRequest));
    let current = hub;
    if (await restoredSince(services, hub, body)) {
      // this cloud no longer holds what it handed out or acknowledged: it was restored from a
      // dump. Its positions will be handed out again for other changes, so it takes a new log
      // identity; every hub sees it at its next hello, pulls everything again (the op ids keep
      // anything from applying twice) and re-offers what the restore lost.
      services.logger.warn({ hub: hub.id }, 'sync: this cloud was restored from an older copy of its database; taking a new log identity');
      await rotateEpoch(services.db);
    }
    if (hub.epoch !== body.epoch) {
      // the hub took a new log identity (a restore): it offers everything again from 0
      current = await services.tx.run(async (trx) => {
        await trx.updateTable('sync_hubs').set({ epoch: body.epoch, cursor: 0, cursor_op_id: null }).where('id', '=', hub.id).execute();
        return lockHub(trx, hub.id, services.dialect);
      });
    }
    await seen(current);
    sendJson(ctx, await position(services, current));
  });

  router.post('/push', async (ctx) => {
    const hub = await authHub(ctx, services);
    const body = await refusing(services, hub, () => readSyncBody(ctx, pushRequest));
    // a batch the hub sent before its predecessor was answered may get here first: it waits
    // for that one (while the hub still waits for it) rather than be refused as a gap
    const until = monotonicMs() + (body.wait_ms ?? 0);
    let gone = false;
    ctx.res.once('close', () => (gone = true));
    const applyOnce = (checked: CheckedChanges) =>
      services.tx.run(async (trx) => {
        const h = await lockHub(trx, hub.id, services.dialect);
        if (h.epoch !== body.epoch) throw cursorMismatch(h, 'epoch');
        // a batch must follow what the cloud holds: one sent after a lost one waits for it
        if (body.after > Number(h.cursor)) throw cursorMismatch(h, 'gap');
        let last = body.after;
        for (const c of body.changes) {
          if (c.origin !== body.epoch || c.origin_seq <= last) {
            throw new ApiError('sync_batch_invalid', 'A push carries only the hub’s own changes, in its log order.', 'changes');
          }
          last = c.origin_seq;
          if (c.origin_seq === Number(h.cursor) && h.cursor_op_id && c.op_id !== h.cursor_op_id) throw cursorMismatch(h, 'diverged');
        }
        // what the cloud already holds is acknowledged again and not applied twice
        const fresh = checked.only((c) => c.origin_seq > Number(h.cursor));
        refuseStampsAhead(fresh.changes, services.clock.now());
        await applyChanges(trx, { restaurantId: h.restaurant_id, role: 'cloud', now: services.clock.now(), hooks: services.registry.hooks }, fresh);
        const top = fresh.changes.at(-1);
        const patch = {
          ...(top ? { cursor: top.origin_seq, cursor_op_id: top.op_id } : {}),
          hub_pending: body.pending ?? 0,
          last_seen_at: Math.floor(services.clock.now() / 1000),
        };
        await trx.updateTable('sync_hubs').set(patch).where('id', '=', h.id).execute();
        return { ...h, ...patch } as Hub;
      });
    const apply = () =>
      refusing(services, hub, async () => {
        // a waiting batch is woken by its restaurant's commits here (its predecessor's among
        // them) and looks again every QUEUE_POLL_MS for one applied by another process
        let commits: ReturnType<typeof countCommits> | undefined;
        // checked before the hub's lock (the check needs nothing the push before may change, and
        // the pushes of a backlog follow one another through that lock), and after the first
        // heartbeat: a pool busy with other pushes must not leave the line silent
        const checked = await CheckedChanges.of(services.db, { restaurantId: hub.restaurant_id, role: 'cloud', now: services.clock.now(), hooks: services.registry.hooks }, body.changes);
        try {
          for (;;) {
            if (commits) commits.seen = commits.count;
            try {
              return await applyOnce(checked);
            } catch (err) {
              if (!isGap(err) || gone || monotonicMs() >= until) throw err;
              commits ??= countCommits(services, hub.restaurant_id);
              await commits.next(Math.min(QUEUE_POLL_MS, until - monotonicMs()));
            }
          }
        } finally {
          commits?.off();
        }
      }).then((at) => position(services, at));
    // a batch can take the cloud a while to apply: heartbeats keep the line audible meanwhile
    if (body.heartbeat_ms) streamJson(ctx, body.heartbeat_ms, apply, (err) => services.logger.error({ err }, 'sync: a push failed'), { small: true });
    else sendJson(ctx, await apply());
  });

  router.post('/pull', async (ctx) => {
    const { hub, at: node } = await authHubAt(ctx, services);
    const body = await refusing(services, hub, () => readSyncBody(ctx, pullRequest));
    const pos = await position(services, hub, node);
    if (body.after > pos.head) throw cursorMismatch(hub, 'ahead', pos.head);
    await notePulled(services, hub, body.after, Math.floor(pos.now / 1000));
    // this process's commits of this restaurant, counted from before the first read: one that
    // lands while a read runs is not missed (it would wait for the next poll)
    const commits = countCommits(services, hub.restaurant_id);
    const read = (after: number) => {
      commits.seen = commits.count;
      return readLog(services.db, { restaurantId: hub.restaurant_id, after, notOrigin: body.epoch, limit: body.limit });
    };
    let page: Awaited<ReturnType<typeof read>>;
    try {
      page = await read(body.after);
    } catch (err) {
      commits.off();
      throw err;
    }
    // a long poll: held open until a change of the restaurant is committed, here or on
    // another process (seen within the poll interval), or until the wait is over
    const until = monotonicMs() + (body.wait_ms ?? 0);
    let gone = false;
    ctx.res.once('close', () => (gone = true));
    // Held while the page brings the hub nothing: the hub's own pushes move the restaurant's
    // log too (and are left out of its pull), and answering each of them with an empty page
    // cost the hub a round trip and a commit per push, and the cloud a pull, for nothing. The
    // wait goes on from where the last read ended; its end answers that position as before.
    let through = body.after;
    const answer = async () => {
      try {
        while (page.changes.length === 0 && monotonicMs() < until && !gone && !closing.signal.aborted) {
          // an empty page read through the log's top: all of it is the hub's own, so the hub
          // holds the log up to there. Compaction's watermark follows it now rather than when
          // the wait ends (answered at once, the hub's next pull used to say so itself).
          if (page.last > through) {
            through = page.last;
            await notePulled(services, hub, through);
          }
          await commits.next(Math.min(250, until - monotonicMs()));
          page = await read(page.last);
        }
      } finally {
        commits.off();
      }
      const waiting = page.more ? await countLog(services.db, { restaurantId: hub.restaurant_id, after: page.last, notOrigin: body.epoch }) : 0;
      // the hub's checkpoint: the op id at the position it will have pulled through
      const at = page.lastOpId !== undefined ? { op_id: page.lastOpId } : page.last > 0 ? await services.db.selectFrom('change_log').select('op_id').where('seq', '=', page.last).executeTakeFirst() : undefined;
      // the time of the answer, not of the question: the hub measures its clock by it
      return { ...pos, ...page, pending: waiting, now: services.clock.now(), last_op_id: at?.op_id ?? null };
    };
    if (closing.signal.aborted) ctx.set('Connection', 'close');
    // a wait with heartbeats answers at once and keeps the line audible while it waits
    if (body.heartbeat_ms && page.changes.length === 0 && until > monotonicMs() && !closing.signal.aborted) {
      streamJson(ctx, body.heartbeat_ms, answer, (err) => services.logger.error({ err }, 'sync: a pull failed'));
    }
    else sendJson(ctx, await answer());
  });

  // a hub whose line was dead asks whether it carries packets again: no credential, nothing read
  router.post('/ping', async (ctx) => {
    await readSyncBody(ctx, pingRequest);
    sendJson(ctx, { object: 'sync_ping', protocol: PROTOCOL_VERSION });
  });

  // a linked hub says which origins its staff devices use: the cloud answers CORS for those
  router.post('/origins', async (ctx) => {
    const hub = await authHub(ctx, services);
    const body = await readSyncBody(ctx, originsRequest);
    const origins = [...new Set(body.origins.map((o) => o.toLowerCase()))].sort();
    await services.db.updateTable('sync_hubs').set({ hub_origins: JSON.stringify(origins) }).where('id', '=', hub.id).execute();
    forgetHubOrigins(services);
    sendJson(ctx, { object: 'sync_origins', origins });
  });

  // a linked hub renames its guest address: the cloud, which sees every restaurant, renames
  // first (409 when another restaurant holds the slug now or held it before), then the hub
  router.post('/slug', async (ctx) => {
    const hub = await authHub(ctx, services);
    const body = await readSyncBody(ctx, slugRequest);
    await services.tx.run((trx) => changeSlug(trx, hub.restaurant_id, body.slug, services.clock.now()));
    sendJson(ctx, { object: 'sync_slug', restaurant_id: hub.restaurant_id, slug: body.slug });
  });

  // the hub unlinks (`comanda sync unlink`): its credential stops working at once
  router.post('/unlink', async (ctx) => {
    const hub = await authHub(ctx, services);
    await readSyncBody(ctx, unlinkRequest);
    const at = Math.floor(services.clock.now() / 1000);
    await services.db.updateTable('sync_hubs').set({ revoked_at: at }).where('id', '=', hub.id).where('revoked_at', 'is', null).execute();
    sendJson(ctx, { object: 'sync_unlink', hub_id: hub.id, revoked_at: at });
  });

  router.post('/audit', async (ctx) => {
    const hub = await authHub(ctx, services);
    const body = await refusing(services, hub, () => readSyncBody(ctx, auditRequest));
    if (body.ids) sendJson(ctx, { tables: {}, rows: await auditRows(services.db, hub.restaurant_id, body.ids) });
    else sendJson(ctx, await auditSide(services.db, hub.restaurant_id, body.detail, { hashes: body.hashes === true }));
  });

  router.post('/repair', async (ctx) => {
    const hub = await authHub(ctx, services);
    const out = await refusing(services, hub, async () => {
      const body = await readSyncBody(ctx, repairRequest);
      const applied = await mergeRows(services, { restaurantId: hub.restaurant_id, role: 'cloud' }, body.rows);
      if (body.state) await saveRepairState(services.db, { table: 'sync_hubs', id: hub.id }, body.state, services.clock.now());
      const want = Object.fromEntries(Object.entries(body.want).map(([t, ids]) => [t, ids.slice(0, MAX_REPAIR_ROWS)]));
      return { applied, rows: await rowsWithClocks(services.db, hub.restaurant_id, want) };
    });
    await seen(hub);
    sendJson(ctx, out);
  });

  return { router, stop: () => closing.abort() };
}

/**
 * A stamp further ahead of this cloud's clock than MAX_AHEAD_MS comes from a clock that
 * jumped: taken, it would drag every later stamp of the restaurant into the future (or,
 * capped, let it beat later edits forever). The batch is refused whole; the hub measures
 * its clock again, re-dates what it has not sent yet and pushes again (sync/clock.ts).
 */
function refuseStampsAhead(changes: WireChange[], nowMs: number): void {
  const bound = nowMs + MAX_AHEAD_MS;
  const ahead = changes.find((c) => c.hlc !== null && parseHlc(c.hlc).ms > bound);
  if (ahead) {
    const by = Math.round((parseHlc(ahead.hlc!).ms - nowMs) / 1000);
    throw new ApiError('sync_batch_invalid', `A change is stamped ${by} s ahead of the cloud’s clock (at most ${MAX_AHEAD_MS / 1000} s): check the hub’s clock.`, 'hlc');
  }
}

/**
 * Whether this cloud lost what it had told this hub, checked against the hub's checkpoints:
 * pushes it acknowledged, or the entry at the position the hub pulled through. Only the hub's
 * checkpoints of this cloud's current identity count: after a new identity they are stale.
 */
async function restoredSince(services: Services, hub: Hub, body: { epoch: string; cloud_epoch?: string | null; pulled?: { after: number; op_id: string | null }; pushed_through?: number }): Promise<boolean> {
  if (!body.cloud_epoch || body.cloud_epoch !== (await currentEpoch(services.db))) return false;
  if (hub.epoch === body.epoch && (body.pushed_through ?? 0) > Number(hub.cursor)) return true;
  const pulled = body.pulled;
  if (!pulled || pulled.after === 0) return false;
  if (pulled.after > (await logHead(services.db))) return true;
  if (!pulled.op_id) return false;
  const at = await services.db.selectFrom('change_log').select('op_id').where('seq', '=', pulled.after).executeTakeFirst();
  // an entry compacted away is no sign of a restore; another op id at that position is
  return at !== undefined && at.op_id !== pulled.op_id;
}

const isGap = (err: unknown) => err instanceof ApiError && err.code === 'sync_cursor_mismatch' && err.param === 'gap';

/** How often a batch waiting for its predecessor looks again (one applied by another process is not announced here). */
const QUEUE_POLL_MS = 50;

function cursorMismatch(h: Hub, reason: 'epoch' | 'gap' | 'diverged' | 'ahead', head?: number): ApiError {
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
function countCommits(services: Services, restaurantId: string) {
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
