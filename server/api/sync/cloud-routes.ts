import type { Context } from 'koa';
import type { z } from 'zod';
import type { ErrorCode } from '../../errors.ts';
import { ANSWERED, defineRoute, type RouteSpec } from '../../http/route.ts';
import type { Services } from '../../services.ts';
import { changeSlug } from '../../domain/restaurants/slugs.ts';
import { auditRows, auditSide } from '../../../sync/audit.ts';
import { authHub, markSeen, refusing, saveHubOrigins, type Hub } from '../../../sync/cloud/hubs.ts';
import { helloHub, linkHub, unlinkHub } from '../../../sync/cloud/link.ts';
import { openPull } from '../../../sync/cloud/pull.ts';
import { pushBatch } from '../../../sync/cloud/push.ts';
import { MAX_REPAIR_ROWS, mergeRows, repairAnswer, repairRequest, rowsWithClocks, saveRepairState } from '../../../sync/repair.ts';
import {
  auditAnswer,
  auditRequest,
  cloudPosition,
  helloRequest,
  linkAnswer,
  linkRequest,
  originsAnswer,
  originsRequest,
  pingAnswer,
  pingRequest,
  PROTOCOL_VERSION,
  pullAnswer,
  pullRequest,
  pushRequest,
  slugAnswer,
  slugRequest,
  unlinkAnswer,
  unlinkRequest,
} from '../../../sync/protocol.ts';
import { readSyncBody, sendJson, streamJson } from '../../../sync/wire.ts';

// The cloud's side of sync (sync/README.md), served under /sync/v1 by a server of role `cloud`
// only. A hub authenticates with its credential (`Authorization: Bearer …`, sync/cloud/hubs.ts),
// not an API key; bodies may be gzip-compressed and are bounded by the protocol (sync/wire.ts);
// answers are compressed when worth it, and a long poll or a long push is streamed with
// heartbeats. The commands are sync/cloud/{link,push,pull}.ts.

/** The hub whose credential came with the request (read with its body, below). */
const hubOf = (ctx: Context): { hub: Hub; at: { origin: string; head: number } } => ctx.state.syncHub;

/** A request anyone may send (a link code, a ping): its body as the protocol reads it. */
const anyone = (schema: z.ZodType) => (ctx: Context) => readSyncBody(ctx, schema);

/**
 * A linked hub's request: its credential first, then its body. `kept`: a refusal of the body
 * (or of what follows, where the route says so) is kept on the hub's row for the cloud's status.
 */
const fromHub =
  (schema: z.ZodType, kept = false) =>
  async (ctx: Context, services: Services) => {
    const who = await authHub(services, ctx.get('authorization'));
    ctx.state.syncHub = who;
    return kept ? refusing(services, who.hub, () => readSyncBody(ctx, schema)) : readSyncBody(ctx, schema);
  };

/** What every handler here returns: it wrote its answer itself (compressed or streamed). */
const answered = ANSWERED;

/** Whether the hub hung up (a wait it started stops). */
function hangUp(ctx: Context): () => boolean {
  let gone = false;
  ctx.res.once('close', () => (gone = true));
  return () => gone;
}

const READ: ErrorCode[] = ['sync_protocol_mismatch', 'sync_batch_invalid'];
const HUB: ErrorCode[] = ['sync_credential_invalid', ...READ];

const common = { method: 'post', tag: 'Sync (cloud)', auth: 'none', sandbox: 'keyless', role: 'cloud' } as const;

export const routes: RouteSpec[] = [
  defineRoute({
    ...common,
    path: '/sync/v1/link',
    summary: 'A hub links to this cloud with a one-time code: it brings its restaurant, or takes over the one the code names; answers its credential (once)',
    body: linkRequest,
    readBody: anyone(linkRequest),
    response: linkAnswer,
    errors: [...READ, 'sync_code_invalid', 'sync_restaurant_mismatch', 'sync_restaurant_exists'],
    handler: async (c) => {
      sendJson(c.ctx, await linkHub(c.services, c.body));
      return answered;
    },
  }),

  defineRoute({
    ...common,
    path: '/sync/v1/hello',
    summary: 'A linked hub says hello: the cloud checks its checkpoints and answers where it stands with it',
    body: helloRequest,
    readBody: fromHub(helloRequest, true),
    response: cloudPosition,
    errors: HUB,
    handler: async (c) => {
      sendJson(c.ctx, await helloHub(c.services, hubOf(c.ctx).hub, c.body));
      return answered;
    },
  }),

  defineRoute({
    ...common,
    path: '/sync/v1/push',
    summary: "A hub's own changes after the cloud's cursor, applied in one transaction; with heartbeat_ms the answer is streamed (whitespace, then the JSON)",
    body: pushRequest,
    readBody: fromHub(pushRequest, true),
    response: cloudPosition,
    errors: [...HUB, 'sync_cursor_mismatch', 'sync_restaurant_mismatch'],
    handler: async (c) => {
      const { hub } = hubOf(c.ctx);
      const gone = hangUp(c.ctx);
      const push = () => pushBatch(c.services, hub, c.body, gone);
      // a batch can take the cloud a while to apply: heartbeats keep the line audible meanwhile
      if (c.body.heartbeat_ms) streamJson(c.ctx, c.body.heartbeat_ms, push, (err) => c.services.logger.error({ err }, 'sync: a push failed'), { small: true });
      else sendJson(c.ctx, await push());
      return answered;
    },
  }),

  defineRoute({
    ...common,
    path: '/sync/v1/pull',
    summary: "A page of the cloud's log after the hub's position (never its own changes); a long poll while nothing is new, streamed with heartbeats when asked",
    body: pullRequest,
    readBody: fromHub(pullRequest, true),
    response: pullAnswer,
    errors: [...HUB, 'sync_cursor_mismatch'],
    handler: async (c) => {
      const { hub, at } = hubOf(c.ctx);
      const closing = c.services.syncCloud!.closing.signal;
      const pull = await openPull(c.services, hub, at, c.body, { gone: hangUp(c.ctx), closing });
      if (closing.aborted) c.ctx.set('Connection', 'close');
      // a wait with heartbeats answers at once and keeps the line audible while it waits
      if (pull.waits) streamJson(c.ctx, c.body.heartbeat_ms!, pull.answer, (err) => c.services.logger.error({ err }, 'sync: a pull failed'));
      else sendJson(c.ctx, await pull.answer());
      return answered;
    },
  }),

  defineRoute({
    ...common,
    path: '/sync/v1/ping',
    // a hub whose line was dead asks whether it carries packets again: no credential, nothing read
    summary: 'Whether the line to the cloud carries packets: no credential, nothing read',
    body: pingRequest,
    readBody: anyone(pingRequest),
    response: pingAnswer,
    errors: READ,
    handler: async (c) => {
      sendJson(c.ctx, { object: 'sync_ping', protocol: PROTOCOL_VERSION });
      return answered;
    },
  }),

  defineRoute({
    ...common,
    path: '/sync/v1/origins',
    summary: "The origins a linked hub's staff devices use: the cloud answers CORS for those",
    body: originsRequest,
    readBody: fromHub(originsRequest),
    response: originsAnswer,
    errors: HUB,
    handler: async (c) => {
      sendJson(c.ctx, { object: 'sync_origins', origins: await saveHubOrigins(c.services, hubOf(c.ctx).hub, c.body.origins) });
      return answered;
    },
  }),

  defineRoute({
    ...common,
    path: '/sync/v1/slug',
    // the cloud, which sees every restaurant, renames first (409 when another restaurant holds
    // the slug now or held it before), then the hub
    summary: "A linked hub renames its restaurant's guest address: the cloud renames first, unique across the cloud",
    body: slugRequest,
    readBody: fromHub(slugRequest),
    response: slugAnswer,
    errors: [...HUB, 'resource_conflict'],
    handler: async (c) => {
      const { hub } = hubOf(c.ctx);
      await c.services.tx.run((trx) => changeSlug(trx, hub.restaurant_id, c.body.slug, c.services.clock.now()));
      sendJson(c.ctx, { object: 'sync_slug', restaurant_id: hub.restaurant_id, slug: c.body.slug });
      return answered;
    },
  }),

  defineRoute({
    ...common,
    path: '/sync/v1/unlink',
    summary: 'The hub unlinks (`comanda sync unlink`): its credential stops working at once',
    body: unlinkRequest,
    readBody: fromHub(unlinkRequest),
    response: unlinkAnswer,
    errors: HUB,
    handler: async (c) => {
      sendJson(c.ctx, await unlinkHub(c.services, hubOf(c.ctx).hub));
      return answered;
    },
  }),

  defineRoute({
    ...common,
    path: '/sync/v1/audit',
    summary: "The cloud's side of an audit: bucket hashes of the restaurant's rows, per-row hashes of some buckets, or some rows whole",
    body: auditRequest,
    readBody: fromHub(auditRequest, true),
    response: auditAnswer,
    errors: HUB,
    handler: async (c) => {
      const { hub } = hubOf(c.ctx);
      const b = c.body;
      if (b.ids) sendJson(c.ctx, { tables: {}, rows: await auditRows(c.services.db, hub.restaurant_id, b.ids) });
      else sendJson(c.ctx, await auditSide(c.services.db, hub.restaurant_id, b.detail, { hashes: b.hashes === true }));
      return answered;
    },
  }),

  defineRoute({
    ...common,
    path: '/sync/v1/repair',
    summary: "A repair: the hub's rows with their clocks are merged here, and the rows it asks for are answered with this side's clocks",
    body: repairRequest,
    readBody: fromHub(repairRequest, true),
    response: repairAnswer,
    errors: [...HUB, 'sync_restaurant_mismatch'],
    handler: async (c) => {
      const { hub } = hubOf(c.ctx);
      const body = c.body;
      const out = await refusing(c.services, hub, async () => {
        const applied = await mergeRows(c.services, { restaurantId: hub.restaurant_id, role: 'cloud' }, body.rows);
        if (body.state) await saveRepairState(c.services.db, { table: 'sync_hubs', id: hub.id }, body.state, c.services.clock.now());
        const want = Object.fromEntries(Object.entries(body.want).map(([t, ids]) => [t, ids.slice(0, MAX_REPAIR_ROWS)]));
        return { applied, rows: await rowsWithClocks(c.services.db, hub.restaurant_id, want) };
      });
      await markSeen(c.services, hub);
      sendJson(c.ctx, out);
      return answered;
    },
  }),
];
