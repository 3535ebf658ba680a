import type { Context, Next } from 'koa';
import { monotonicMs } from '../clock.ts';
import type { Services } from '../services.ts';

/**
 * CORS on the cloud for the venue's own devices (docs/contributors/two-homes.md): a page served
 * by a linked hub (its origin, as the hub reported it) may call the cloud when the hub stops.
 * Credentials travel in headers (X-API-Key, X-Session-Token), never cookies, so the answer never
 * allows credentials; an origin no linked hub reported gets no CORS headers at all, and its
 * browser keeps the answer from it. The hub itself answers no cross-origin call.
 */
const ALLOWED_HEADERS = 'Accept, Content-Type, X-API-Key, X-Session-Token, Idempotency-Key';
const EXPOSED_HEADERS = 'Request-Id, Idempotent-Replayed, Retry-After';
// the origins of every linked hub, read again after this long (a new link, a new device address)
const ORIGINS_CACHE_MS = 5_000;

const caches = new WeakMap<Services, { at: number; origins: Set<string> }>();

/** Drops the cache at once: a hub just told this process its origins. */
export const forgetHubOrigins = (services: Services) => caches.delete(services);

async function hubOrigins(services: Services): Promise<Set<string>> {
  const hit = caches.get(services);
  if (hit && monotonicMs() - hit.at < ORIGINS_CACHE_MS) return hit.origins;
  const rows = await services.db.selectFrom('sync_hubs').select('hub_origins').where('revoked_at', 'is', null).where('hub_origins', 'is not', null).execute();
  const origins = new Set<string>();
  for (const r of rows) for (const o of JSON.parse(r.hub_origins!) as string[]) origins.add(o);
  caches.set(services, { at: monotonicMs(), origins });
  return origins;
}

export function corsMiddleware(services: Services) {
  return async (ctx: Context, next: Next) => {
    const origin = ctx.get('origin');
    if (services.config.role !== 'cloud' || !origin || !(ctx.path.startsWith('/v1/') || ctx.path.startsWith('/public/'))) return next();
    ctx.vary('Origin');
    if (!(await hubOrigins(services)).has(origin.toLowerCase())) return next();
    ctx.set('Access-Control-Allow-Origin', origin);
    ctx.set('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    if (ctx.method === 'OPTIONS' && ctx.get('access-control-request-method')) {
      ctx.set('Access-Control-Allow-Methods', 'GET, POST, PATCH, PUT, DELETE');
      ctx.set('Access-Control-Allow-Headers', ALLOWED_HEADERS);
      ctx.set('Access-Control-Max-Age', '600');
      ctx.status = 204;
      return;
    }
    return next();
  };
}
