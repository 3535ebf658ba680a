import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { DB } from '../../server/db/schema.ts';
import { ApiError } from '../../server/errors.ts';
import { newId, PREFIXES } from '../../server/ids.ts';
import type { Services } from '../../server/services.ts';
import { logHead } from '../../server/db/log-positions.ts';
import { hashSecret, INVITE_TTL_SECONDS, makeCredential, makeLinkCode } from '../credentials.ts';
import { currentEpoch, rotateEpoch } from '../epoch.ts';
import type { helloRequest, linkAnswer, linkRequest, CloudPosition } from '../protocol.ts';
import { lockHub, markSeen, position, type Hub } from './hubs.ts';

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

/**
 * A hub links with a one-time code: a new one brings its restaurant (`push`), one with a code
 * made for a restaurant takes that one over (`pull`) and the hub it replaces is revoked. The
 * credential is answered once and kept only as its hash.
 */
export async function linkHub(services: Services, body: z.output<typeof linkRequest>): Promise<z.output<typeof linkAnswer>> {
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
  return { object: 'sync_link', hub_id: out.hub.id, credential, mode: out.mode, ...(await position(services, out.hub)) };
}

/**
 * A hub says hello (at every start and reconnection): the cloud checks the hub's checkpoints
 * (a cloud restored from a dump takes a new log identity), follows a hub that took a new one,
 * and answers where it stands.
 */
export async function helloHub(services: Services, hub: Hub, body: z.output<typeof helloRequest>): Promise<CloudPosition> {
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
  await markSeen(services, current);
  return position(services, current);
}

/** The hub unlinks (`comanda sync unlink`): its credential stops working at once. */
export async function unlinkHub(services: Services, hub: Hub): Promise<{ object: 'sync_unlink'; hub_id: string; revoked_at: number }> {
  const at = Math.floor(services.clock.now() / 1000);
  await services.db.updateTable('sync_hubs').set({ revoked_at: at }).where('id', '=', hub.id).where('revoked_at', 'is', null).execute();
  return { object: 'sync_unlink', hub_id: hub.id, revoked_at: at };
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

