import type { Kysely } from 'kysely';
import { formatHlc, parseHlc } from '../server/db/hlc.ts';
import type { DB } from '../server/db/schema.ts';
import { ApiError } from '../server/errors.ts';
import type { Services } from '../server/services.ts';
import { currentEpoch } from './epoch.ts';
import { sealCredential } from './credentials.ts';
import { callCloud, credentialOf, readLink, Refused, syncUntilIdle } from './hub.ts';
import { PROTOCOL_VERSION, type CloudPosition } from './protocol.ts';
import { setWebhooksHandedOff } from '../server/domain/webhooks/hand-off.ts';
import { webhooksConfig } from '../server/domain/webhooks/config.ts';
import { checkEndpointUrl } from '../server/domain/webhooks/url-policy.ts';
import type { Config } from '../server/config.ts';

export interface LinkResult {
  linked: true;
  hub_id: string;
  restaurant_id: string;
  mode: 'push' | 'pull';
  cloud_url: string;
  pushed: number;
  pulled: number;
  /** endpoints this hub sent until now that the cloud sends from now on, and whether it can reach them */
  endpoints_moved: EndpointMoved[];
}

export interface EndpointMoved {
  id: string;
  url: string;
  /** false: an address only the venue's network reaches (or plain http): the cloud cannot deliver to it */
  cloud_reaches: boolean;
  warning: string;
}

/**
 * A hub on its own sends every endpoint; linked, it sends only those marked `sent_by: hub`, and
 * the cloud the rest. Those change sides at link: each is named, and one the cloud cannot reach
 * (a LAN or loopback address, plain http) is named as such, with what to do.
 */
async function endpointsChangingSides(db: Kysely<DB>, restaurantId: string): Promise<EndpointMoved[]> {
  const rows = await db
    .selectFrom('webhook_endpoints')
    .select(['id', 'url', 'livemode'])
    .where('restaurant_id', '=', restaurantId)
    .where('status', '=', 'enabled')
    .where('sent_by', '=', 'cloud')
    .orderBy('id')
    .execute();
  const cloudPolicy = webhooksConfig({ role: 'cloud' } as Config);
  const out: EndpointMoved[] = [];
  for (const r of rows) {
    const cloud_reaches = await checkEndpointUrl(r.url, cloudPolicy, r.livemode === 1).then(
      () => true,
      () => false,
    );
    out.push({
      id: r.id,
      url: r.url,
      cloud_reaches,
      warning: cloud_reaches
        ? `webhook endpoint ${r.id} (${r.url}) is sent by the cloud from now on`
        : `webhook endpoint ${r.id} (${r.url}) is on the venue's network or plain http: the cloud cannot reach it — to keep it sent from this hub, set sent_by to hub (PATCH /v1/webhook_endpoints/${r.id})`,
    });
  }
  return out;
}

/** A hub clock further off than this from the cloud's has its unsent history re-dated at link. */
const RESTAMP_MS = 5_000;

/**
 * Links this hub to a cloud with a one-time code, then syncs until both hold the same: a new
 * link pushes the hub's whole restaurant, history included; a code for a restaurant the cloud
 * already has (the old PC died) pulls it all down into this data dir instead.
 */
export async function linkHub(services: Services, cloudUrl: string, code: string): Promise<LinkResult> {
  const { db } = services;
  const existing = await readLink(db);
  if (existing) {
    // a link cut after the cloud answered: the hub is linked, only its first sync is unfinished
    if (existing.cloud_url === cloudUrl) {
      const done = await syncUntilIdle(services);
      const mode = existing.push_cursor > 0 || done.pushed > 0 ? 'push' : 'pull';
      return { linked: true, hub_id: existing.hub_id, restaurant_id: existing.restaurant_id, mode, cloud_url: cloudUrl, ...done, endpoints_moved: [] };
    }
    throw new ApiError('state_conflict', `This hub is already linked to ${existing.cloud_url}. \`comanda sync unlink\` first to link it to another cloud.`);
  }
  const restaurants = await db.selectFrom('restaurants').select(['id', 'slug']).execute();
  if (restaurants.length > 1) throw new ApiError('state_conflict', 'This data dir holds several restaurants; a hub links exactly one.');
  const mine = restaurants[0] ?? null;
  const epoch = await currentEpoch(db);
  const sent = services.clock.now();
  const res = await callCloud<CloudPosition & { hub_id: string; credential: string; mode: 'push' | 'pull' }>(cloudUrl, '/link', {
    protocol: PROTOCOL_VERSION,
    code,
    restaurant_id: mine?.id ?? null,
    slug: mine?.slug,
    epoch,
  });
  if (res.mode === 'pull' && mine && mine.id !== res.restaurant_id) {
    throw new ApiError('state_conflict', `This data dir holds another restaurant (${mine.id}) than the one the code takes over.`);
  }
  const offset = Math.round(res.now - (sent + services.clock.now()) / 2);
  // a replacement hub takes the cloud's endpoints as they are: none changes sides
  const moved = res.mode === 'push' ? await endpointsChangingSides(db, res.restaurant_id) : [];
  if (res.mode === 'push' && -offset > RESTAMP_MS) await redate(db, offset);
  const now = Math.floor(services.clock.now() / 1000);
  await services.tx.run(async (trx) => {
    await trx
      .insertInto('sync_link')
      .values({
        id: 1,
        restaurant_id: res.restaurant_id,
        cloud_url: cloudUrl,
        hub_id: res.hub_id,
        // sealed: the database (and so every backup) never holds it in the clear
        credential: sealCredential(services, res.credential),
        pull_cursor: 0,
        push_cursor: 0,
        resync: 0,
        connected: 1,
        last_synced_at: null,
        last_error: null,
        cloud_head: res.head,
        pending_pull: 0,
        cloud_epoch: res.cloud_epoch,
        refused: null,
        clock_offset_ms: offset,
        pull_op_id: null,
        repair_state: 'unknown',
        repair_checked_at: null,
        repaired_rows: 0,
        repair_unconverged: null,
        created: now,
      })
      .execute();
    // from now on the cloud sends this restaurant's webhooks but those marked `hub`, this hub's queue included
    await trx
      .deleteFrom('webhook_deliveries')
      .where('restaurant_id', '=', res.restaurant_id)
      .where('status', '=', 'pending')
      .where('endpoint_id', 'not in', trx.selectFrom('webhook_endpoints').select('id').where('restaurant_id', '=', res.restaurant_id).where('sent_by', '=', 'hub'))
      .execute();
  });
  setWebhooksHandedOff(db, res.restaurant_id, true);
  const done = await syncUntilIdle(services);
  return { linked: true, hub_id: res.hub_id, restaurant_id: res.restaurant_id, mode: res.mode, cloud_url: cloudUrl, ...done, endpoints_moved: moved };
}

/**
 * A hub whose clock runs fast stamped its history in the future, where every later change on
 * the cloud would lose against it. Before anything of it was sent, the whole history moves
 * by the measured offset: the order of its own changes is kept, only their time is corrected.
 */
async function redate(db: Kysely<DB>, offsetMs: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const rows = await trx.selectFrom('change_log').select(['seq', 'hlc']).where('hlc', 'is not', null).execute();
    for (const r of rows) {
      await trx.updateTable('change_log').set({ hlc: shift(r.hlc!, offsetMs) }).where('seq', '=', r.seq).execute();
    }
    const saved = await trx.selectFrom('log_clocks').select(['restaurant_id', 'hlc']).where('hlc', 'is not', null).execute();
    for (const st of saved) await trx.updateTable('log_clocks').set({ hlc: shift(st.hlc!, offsetMs) }).where('restaurant_id', '=', st.restaurant_id).execute();
  });
}

function shift(hlc: string, offsetMs: number): string {
  const { ms, counter } = parseHlc(hlc);
  return formatHlc(Math.max(0, ms + offsetMs), counter, hlc.slice(18));
}

/**
 * Ends the link on this hub: the cloud revokes its credential first (a copy of it in an old
 * backup then opens nothing), then sync stops and webhooks are sent from here again. When the
 * cloud cannot be reached the link stays, unless `force`: then the hub forgets it and says
 * that the credential is still valid on the cloud.
 */
export async function unlinkHub(services: Services, opts: { force?: boolean } = {}): Promise<{ linked: false; was: string | null; revoked: boolean }> {
  const { db } = services;
  const link = await readLink(db);
  if (!link) return { linked: false, was: null, revoked: false };
  let revoked = false;
  try {
    await callCloud(link.cloud_url, '/unlink', { protocol: PROTOCOL_VERSION }, { credential: credentialOf(services, link), timeoutMs: 15_000 });
    revoked = true;
  } catch (err) {
    // already revoked or unknown there: nothing is left to revoke
    if (err instanceof Refused && err.code === 'sync_credential_invalid') revoked = true;
    else if (!opts.force) {
      throw new ApiError('state_conflict', `The cloud could not revoke this hub’s credential (${(err as Error).message}); the link stays. Try again when the cloud is reachable, or unlink with --force (the credential then stays valid on the cloud).`);
    }
  }
  await db.deleteFrom('sync_link').where('id', '=', 1).execute();
  setWebhooksHandedOff(db, link.restaurant_id, false);
  return { linked: false, was: link.hub_id, revoked };
}
