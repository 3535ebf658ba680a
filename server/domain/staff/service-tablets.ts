import type { Kysely } from 'kysely';
import { hashApiKey, randomToken } from '../../auth/keys.ts';
import type { DB } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { newId } from '../../ids.ts';
import { revokeTabletSessions } from './sessions.ts';

export const SERVICE_TABLET_PREFIX = 'tab';
/** A tablet stays trusted for PINs for 90 days, then a manager signs it in again. */
export const SERVICE_TABLET_DAYS = 90;
// the last use is written at most once a minute per tablet
const TOUCH_RESOLUTION_S = 60;

/**
 * A service tablet: the one kind of screen where staff sign in with a PIN. A manager's (or the
 * owner's) password session trusts it; it carries a random token in a cookie, kept here as its
 * hash, so a trusted tablet is listed, and revoked, in Settings → Screens, and revoking it ends
 * the sessions opened on it. Kitchen and expo screens (paired with a code) never sign staff in.
 */
export async function trustTablet(
  db: Kysely<DB>,
  input: { restaurantId: string; trustedBy: string; name: string; ip: string | null; userAgent: string | null; nowMs: number },
) {
  const token = `${SERVICE_TABLET_PREFIX}.${randomToken(43)}`;
  const now = Math.floor(input.nowMs / 1000);
  const row = {
    id: newId(SERVICE_TABLET_PREFIX, input.nowMs),
    restaurant_id: input.restaurantId,
    token_hash: hashApiKey(token),
    name: input.name,
    trusted_by: input.trustedBy,
    ip: input.ip,
    user_agent: input.userAgent?.slice(0, 300) ?? null,
    created: now,
    last_used_at: null,
    expires_at: now + SERVICE_TABLET_DAYS * 86_400,
    revoked_at: null,
  };
  await db.insertInto('service_tablets').values(row).execute();
  return { token, row };
}

/** The live service tablet a cookie names, or null (none, unknown, expired or revoked). */
export async function tabletOfToken(db: Kysely<DB>, token: string | undefined, nowMs: number) {
  if (!token || token.length > 100) return null;
  const now = Math.floor(nowMs / 1000);
  const row = await db.selectFrom('service_tablets').selectAll().where('token_hash', '=', hashApiKey(token)).executeTakeFirst();
  if (!row || row.revoked_at !== null || Number(row.expires_at) <= now) return null;
  if (row.last_used_at === null || now - Number(row.last_used_at) >= TOUCH_RESOLUTION_S) {
    await db.updateTable('service_tablets').set({ last_used_at: now }).where('id', '=', row.id).execute();
  }
  return row;
}

export async function listTablets(db: Kysely<DB>, restaurantId: string) {
  return db.selectFrom('service_tablets').selectAll().where('restaurant_id', '=', restaurantId).orderBy('created', 'desc').limit(200).execute();
}

/** Revokes a tablet and ends every session opened on it; answers the tablet as it now is. */
export async function revokeTablet(db: Kysely<DB>, restaurantId: string, id: string, nowMs: number) {
  const row = await db.selectFrom('service_tablets').selectAll().where('restaurant_id', '=', restaurantId).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('service tablet', id);
  const now = Math.floor(nowMs / 1000);
  if (row.revoked_at === null) await db.updateTable('service_tablets').set({ revoked_at: now }).where('id', '=', id).execute();
  const ended = await revokeTabletSessions(db, id, nowMs);
  return { tablet: { ...row, revoked_at: row.revoked_at ?? now }, ended };
}
