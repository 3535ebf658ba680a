import type { Context } from 'koa';
import { hashApiKey } from '../auth/keys.ts';
import type { Scope } from '../auth/scopes.ts';
import { refusal } from '../errors.ts';
import type { Services } from '../services.ts';
import { RateLimiter } from './rate-limit.ts';
import { sessionOf } from './session.ts';
import { keyOf } from './api-key-header.ts';
import type { StaffSession } from '../auth/staff-session.ts';
import { screenOf, type ScreenBinding } from './screen-keys.ts';
import { monotonicMs } from '../clock.ts';

export interface Caller {
  /** the API key's id, or a staff session's (ses_…) */
  keyId: string;
  restaurantId: string;
  kind: 'secret' | 'widget';
  livemode: boolean;
  scopes: ReadonlySet<string>;
  /** set for a paired screen's key: what it was paired for, and so all it may do (http/screen-keys.ts) */
  screen?: ScreenBinding;
  /** set when a signed-in staff member calls through the back office */
  staff?: { id: string; role: string; sessionId: string };
}

// last_used_at is written at most once a minute per key: exact to the minute is what an
// owner needs, and it keeps a write off every read request.
const LAST_USED_RESOLUTION_MS = 60_000;
const limiters = new WeakMap<Services, RateLimiter | null>();

function limiterFor(services: Services): RateLimiter | null {
  let l = limiters.get(services);
  if (l === undefined) {
    const cfg = services.config.rateLimit;
    l = cfg ? new RateLimiter(cfg.perSecond, cfg.burst) : null;
    limiters.set(services, l);
  }
  return l;
}

/**
 * A resolved key is reused for a few seconds, sparing a query on every request. A key
 * revoked elsewhere (another process, sync) therefore keeps working for at most this long.
 */
const KEY_CACHE_MS = 5_000;

interface KnownKey {
  caller: Caller;
  /** ms of the last_used_at this process knows was written */
  lastUsedMs: number | null;
  fetchedAt: number;
}

/**
 * Kept by the key as sent: its SHA-256 (what the table stores) is made only to look it up
 * again, not on every request (12 µs of an order's CPU).
 */
const keyCaches = new WeakMap<Services, Map<string, KnownKey>>();

/** Drops a key from this process's cache at once (the live feed found it revoked). */
export function forgetKey(services: Services, keyId: string): void {
  const cache = keyCaches.get(services);
  if (!cache) return;
  for (const [sent, known] of cache) if (known.caller.keyId === keyId) cache.delete(sent);
}

async function resolveKey(services: Services, key: string): Promise<KnownKey | null> {
  let cache = keyCaches.get(services);
  if (!cache) keyCaches.set(services, (cache = new Map()));
  const hit = cache.get(key);
  if (hit && monotonicMs() - hit.fetchedAt < KEY_CACHE_MS) return hit;
  const hash = hashApiKey(key);
  const row = await services.db
    .selectFrom('api_keys')
    .select(['id', 'restaurant_id', 'kind', 'livemode', 'scopes', 'screen', 'last_used_at', 'revoked_at'])
    .where('hash', '=', hash)
    .executeTakeFirst();
  if (!row || row.revoked_at !== null) {
    cache.delete(key);
    return null;
  }
  const known: KnownKey = {
    caller: {
      keyId: row.id,
      restaurantId: row.restaurant_id,
      kind: row.kind,
      livemode: row.livemode === 1,
      scopes: new Set<string>(JSON.parse(row.scopes)),
      ...(row.screen !== null && { screen: screenOf(row.screen) }),
    },
    lastUsedMs: row.last_used_at === null ? null : row.last_used_at * 1000,
    fetchedAt: monotonicMs(),
  };
  if (cache.size > 10_000) cache.clear();
  cache.set(key, known);
  return known;
}

export async function authenticate(
  ctx: Context,
  services: Services,
  kind: 'secret' | 'widget',
  scope: Scope | undefined,
): Promise<Caller> {
  const key = keyOf(ctx);
  if (!key) {
    // A signed-in staff member: the role's scopes stand in for a key's, checked the same way.
    const session = await sessionOf(ctx, services);
    if (session) return sessionCaller(session, scope, services);
    throw refusal('api_key_missing', 'No API key provided. Send it in the X-API-Key header (or as Authorization: Bearer).');
  }
  const known = await resolveKey(services, key);
  if (!known) throw refusal('api_key_invalid', 'Invalid API key provided.');
  const { caller } = known;
  if (caller.kind !== kind) {
    throw refusal(
      'key_type_not_allowed',
      kind === 'widget' ? 'This surface takes a widget key (wk_…).' : 'This route takes a secret key (sk_…), not a widget key.',
    );
  }
  if (scope && !caller.scopes.has(scope)) {
    throw refusal('insufficient_scope', `This API key lacks the required scope '${scope}'.`);
  }
  const now = services.clock.now();
  limiterFor(services)?.take(caller.keyId, services.clock.monotonic());
  if (known.lastUsedMs === null || now - known.lastUsedMs >= LAST_USED_RESOLUTION_MS) {
    known.lastUsedMs = now;
    // Key bookkeeping, not a replicated record change: it stays out of the change log.
    await services.db.updateTable('api_keys').set({ last_used_at: Math.floor(now / 1000) }).where('id', '=', caller.keyId).execute();
  }
  return caller;
}

/** The restaurant of a paired screen's live widget key sent in X-API-Key; null for any other key or none. */
export async function restaurantOfDeviceKey(services: Services, key: string): Promise<string | null> {
  const known = await resolveKey(services, key);
  // a screen's key only: a widget key on a website is no venue tablet
  return known && known.caller.screen && known.caller.livemode ? known.caller.restaurantId : null;
}

function sessionCaller(session: StaffSession, scope: Scope | undefined, services: Services): Caller {
  if (scope && !session.scopes.has(scope)) {
    throw refusal('insufficient_scope', `Your role (${session.access}) does not allow this: it needs the scope '${scope}'.`);
  }
  limiterFor(services)?.take(session.id, services.clock.monotonic());
  // A session works the live restaurant, on v1 and on the operational surface alike.
  return {
    keyId: session.id,
    restaurantId: session.restaurantId,
    kind: 'secret',
    livemode: true,
    scopes: session.scopes,
    staff: { id: session.staff.id, role: session.staff.role, sessionId: session.id },
  };
}
