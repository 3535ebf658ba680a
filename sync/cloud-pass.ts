import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import { randomToken } from '../server/auth/keys.ts';
import type { DB } from '../server/db/schema.ts';
import type { Services } from '../server/services.ts';
import { credentialOf, readLink } from './hub.ts';
import { hashSecret } from './credentials.ts';

/**
 * A cloud pass (docs/contributors/two-homes.md): how a PIN session on a trusted service tablet
 * is opened again on the cloud, without a second PIN, when the hub stops. The hub signs what it
 * vouches for (this person signed in with their PIN on this trusted tablet) with a key both
 * sides can make and nobody else: the SHA-256 of the hub's sync credential, which the cloud
 * stores (`sync_hubs.credential_hash`) and the hub can compute. So nothing new travels by
 * sync, and a pass made a second before the hub died works at once.
 */

/** A pass lives this long; the service page renews it every few minutes while the hub answers. */
export const CLOUD_PASS_SECONDS = 15 * 60;
const VERSION = 'cp1';

export interface CloudPassClaims {
  /** restaurant */
  r: string;
  /** the hub's link on the cloud (sync_hubs.id) */
  h: string;
  /** the person */
  u: string;
  /** the service tablet on the hub */
  t: string;
  /** expiry, Unix seconds */
  e: number;
  /** one use: the cloud keeps it until the pass expires */
  n: string;
}

const macKey = (credentialHash: string) => createHmac('sha256', credentialHash).update('comanda cloud pass v1').digest();
const macOf = (credentialHash: string, payload: string) => createHmac('sha256', macKey(credentialHash)).update(payload).digest('base64url');

/** Hub side: a pass for a PIN session on a trusted tablet, or null when the hub is not linked. */
export async function issueCloudPass(services: Services, who: { restaurantId: string; userId: string; tabletId: string }): Promise<{ pass: string; expires: number; cloudUrl: string } | null> {
  const link = await readLink(services.db);
  if (!link || link.restaurant_id !== who.restaurantId) return null;
  const expires = Math.floor(services.clock.now() / 1000) + CLOUD_PASS_SECONDS;
  const claims: CloudPassClaims = { r: who.restaurantId, h: link.hub_id, u: who.userId, t: who.tabletId, e: expires, n: randomToken(22) };
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return { pass: `${VERSION}.${payload}.${macOf(hashSecret(credentialOf(services, link)), payload)}`, expires, cloudUrl: link.cloud_url };
}

/**
 * Cloud side: the claims of a pass signed by a live linked hub, not expired and not used
 * before (its nonce is spent here), or null.
 */
export async function redeemCloudPass(db: Kysely<DB>, pass: string, nowMs: number): Promise<CloudPassClaims | null> {
  const [version, payload, mac] = pass.split('.');
  if (version !== VERSION || !payload || !mac) return null;
  let claims: CloudPassClaims;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as CloudPassClaims;
  } catch {
    return null;
  }
  if (typeof claims?.h !== 'string' || typeof claims.r !== 'string' || typeof claims.u !== 'string' || typeof claims.n !== 'string' || typeof claims.e !== 'number') return null;
  const now = Math.floor(nowMs / 1000);
  if (claims.e <= now || claims.e > now + CLOUD_PASS_SECONDS + 60) return null;
  const hub = await db.selectFrom('sync_hubs').select(['credential_hash', 'restaurant_id']).where('id', '=', claims.h).where('revoked_at', 'is', null).executeTakeFirst();
  if (!hub || hub.restaurant_id !== claims.r) return null;
  const want = Buffer.from(macOf(hub.credential_hash, payload));
  const got = Buffer.from(mac);
  if (want.length !== got.length || !timingSafeEqual(want, got)) return null;
  await db.deleteFrom('cloud_pass_uses').where('expires_at', '<=', now).execute();
  const spent = await db.insertInto('cloud_pass_uses').values({ nonce: claims.n, expires_at: claims.e }).onConflict((oc) => oc.column('nonce').doNothing()).executeTakeFirst();
  if (Number(spent.numInsertedOrUpdatedRows ?? 0n) !== 1) return null;
  return claims;
}
