import type { Context } from 'koa';
import { callerIp, clientKey } from '../../http/client-ip.ts';
import { guestOf } from '../../features/guest.ts';
import type { Executor } from '../../db/records.ts';
import type { Call } from '../../http/route.ts';
import type { Services } from '../../services.ts';

/**
 * Per-IP limit of every guest route (throws 429 with Retry-After): the routes' preflight,
 * taken before the body or anything else is read, so malformed requests count too.
 */
export function limitIp(ctx: Context, services: Services): void {
  const ip = callerIp(ctx, services.config.trustedProxies);
  guestOf(services).ipLimiter?.take(`ip:${clientKey(ip)}`, services.clock.now());
}

/** The caller's address as the guest routes see it. */
export const guestIp = (c: Call<any, any, any>) => callerIp(c.ctx, c.services.config.trustedProxies);

/** Per-restaurant limit of the guest routes that name a restaurant. */
export function limitRestaurant(services: Services, restaurantId: string): void {
  guestOf(services).restaurantLimiter?.take(`rst:${restaurantId}`, services.clock.now());
}

/**
 * What a guest route names (a slug, a token), looked up after the per-IP limit (the route's
 * preflight) and before the per-restaurant limit of the restaurant it turns out to belong to.
 */
export async function guestLookup<T>(c: Call<any, any, any>, find: (db: Executor) => Promise<T>, restaurantOf: (found: T) => string): Promise<T> {
  const found = await find(c.db);
  limitRestaurant(c.services, restaurantOf(found));
  return found;
}
