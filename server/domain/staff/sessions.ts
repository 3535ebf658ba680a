import type { Kysely } from 'kysely';
import { hashApiKey, randomToken } from '../../auth/keys.ts';
import { accessRoleOf, scopesOfSession, type AccessRole, type SessionVia } from '../../auth/roles.ts';
import type { DB } from '../../db/schema.ts';
import { newId } from '../../ids.ts';
import type { StaffSession } from '../../auth/staff-session.ts';

export const SESSION_PREFIX = 'ses';

/** How long a session lives: idle for at most `idleSeconds`, never longer than `maxSeconds`. */
export interface SessionLifetime {
  idleSeconds: number;
  maxSeconds: number;
}

export const DEFAULT_SESSION_LIFETIME: SessionLifetime = { idleSeconds: 12 * 3600, maxSeconds: 30 * 24 * 3600 };

// Sliding the idle expiry is a write; once a minute per session is exact enough.
const TOUCH_RESOLUTION_S = 60;

export async function createSession(
  db: Kysely<DB>,
  input: {
    restaurantId: string;
    userId: string;
    ip: string | null;
    userAgent: string | null;
    nowMs: number;
    lifetime: SessionLifetime;
    /** a PIN sign-in names the service tablet it was made on */
    pin?: { serviceTabletId: string };
  },
) {
  const token = randomToken(43);
  const csrfToken = randomToken(32);
  const now = Math.floor(input.nowMs / 1000);
  const row = {
    id: newId(SESSION_PREFIX, input.nowMs),
    restaurant_id: input.restaurantId,
    user_id: input.userId,
    token_hash: hashApiKey(token),
    csrf_token: csrfToken,
    ip: input.ip,
    user_agent: input.userAgent?.slice(0, 300) ?? null,
    created: now,
    last_seen_at: now,
    expires_at: Math.min(now + input.lifetime.idleSeconds, now + input.lifetime.maxSeconds),
    max_expires_at: now + input.lifetime.maxSeconds,
    revoked_at: null,
    via: input.pin ? ('pin' as const) : ('password' as const),
    service_tablet_id: input.pin?.serviceTabletId ?? null,
  };
  await db.insertInto('staff_sessions').values(row).execute();
  return { token, csrfToken, id: row.id, expiresAt: row.expires_at };
}

/**
 * The session a cookie names, with its staff member as they are now: a deactivated person,
 * or one whose role no longer signs in, has no session, and a changed role applies at once.
 */
export async function resolveSession(db: Kysely<DB>, token: string, nowMs: number, lifetime: SessionLifetime): Promise<StaffSession | null> {
  const now = Math.floor(nowMs / 1000);
  const row = await db
    .selectFrom('staff_sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['s.id', 's.restaurant_id', 's.csrf_token', 's.expires_at', 's.max_expires_at', 's.last_seen_at', 's.revoked_at', 's.via'])
    .select(['u.id as user_id', 'u.name', 'u.email', 'u.role', 'u.language', 'u.is_active', 'u.restaurant_id as user_restaurant'])
    .where('s.token_hash', '=', hashApiKey(token))
    .executeTakeFirst();
  if (!row || row.revoked_at !== null || Number(row.expires_at) <= now || Number(row.is_active) !== 1) return null;
  if (row.user_restaurant !== row.restaurant_id) return null;
  const access = accessRoleOf(row.role);
  if (!access) return null;
  let expiresAt = Number(row.expires_at);
  if (now - Number(row.last_seen_at) >= TOUCH_RESOLUTION_S) {
    expiresAt = Math.min(now + lifetime.idleSeconds, Number(row.max_expires_at));
    await db.updateTable('staff_sessions').set({ last_seen_at: now, expires_at: expiresAt }).where('id', '=', row.id).execute();
  }
  return {
    id: row.id,
    restaurantId: row.restaurant_id,
    csrfToken: row.csrf_token,
    expiresAt,
    staff: { id: row.user_id, name: row.name, email: row.email, role: row.role, language: row.language },
    access,
    scopes: new Set(scopesOfSession(row.role, row.via)),
    via: row.via,
  };
}

/** The person and role behind one of the restaurant's live sessions, or undefined. */
export async function sessionOwner(db: Kysely<DB>, restaurantId: string, id: string) {
  return db
    .selectFrom('staff_sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['s.id', 'u.id as userId', 'u.role'])
    .where('s.id', '=', id)
    .where('s.restaurant_id', '=', restaurantId)
    .where('s.revoked_at', 'is', null)
    .executeTakeFirst();
}

export async function revokeSession(db: Kysely<DB>, restaurantId: string, id: string, nowMs: number): Promise<boolean> {
  const r = await db
    .updateTable('staff_sessions')
    .set({ revoked_at: Math.floor(nowMs / 1000) })
    .where('id', '=', id)
    .where('restaurant_id', '=', restaurantId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Signs a person out everywhere: after a password change, a deactivation, a lost tablet. */
export async function revokeUserSessions(db: Kysely<DB>, userId: string, nowMs: number, exceptId?: string): Promise<number> {
  let q = db.updateTable('staff_sessions').set({ revoked_at: Math.floor(nowMs / 1000) }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (exceptId) q = q.where('id', '!=', exceptId);
  const r = await q.executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** Ends the sessions opened by PIN on a service tablet that was just revoked; how many. */
export async function revokeTabletSessions(db: Kysely<DB>, tabletId: string, nowMs: number): Promise<number> {
  const r = await db.updateTable('staff_sessions').set({ revoked_at: Math.floor(nowMs / 1000) }).where('service_tablet_id', '=', tabletId).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export async function listSessions(db: Kysely<DB>, restaurantId: string, nowMs: number) {
  return db
    .selectFrom('staff_sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['s.id', 's.user_id', 'u.name', 'u.email', 'u.role', 's.ip', 's.user_agent', 's.created', 's.last_seen_at', 's.expires_at', 's.via'])
    .where('s.restaurant_id', '=', restaurantId)
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', Math.floor(nowMs / 1000))
    .orderBy('s.created', 'desc')
    .limit(200)
    .execute();
}
