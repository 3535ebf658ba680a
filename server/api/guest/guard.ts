import type { Context } from 'koa';
import { callerIp, clientKey } from '../../http/client-ip.ts';
import { redeemChallenge } from '../../domain/contact/captcha.ts';
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
  guestOf(services).ipLimiter?.take(`ip:${clientKey(ip)}`, services.clock.monotonic());
}

/** The caller's address as the guest routes see it. */
export const guestIp = (c: Call<any, any, any>) => callerIp(c.ctx, c.services.config.trustedProxies);

/** Per-restaurant limit of the guest routes that name a restaurant, shared fairly between the addresses asking. */
export function limitRestaurant(services: Services, restaurantId: string, client: string): void {
  guestOf(services).restaurantLimiter?.take(`rst:${restaurantId}`, clientKey(client), services.clock.monotonic());
}

/**
 * What a guest route names (a slug, a token), looked up after the per-IP limit (the route's
 * preflight) and before the per-restaurant limit of the restaurant it turns out to belong to.
 */
export async function guestLookup<T>(c: Call<any, any, any>, find: (db: Executor) => Promise<T>, restaurantOf: (found: T) => string): Promise<T> {
  const found = await find(c.db);
  limitRestaurant(c.services, restaurantOf(found), guestIp(c));
  return found;
}

/**
 * A guest's write (a waitlist join, a feedback): capped per address at the restaurant, then
 * the bot check (a solved proof-of-work challenge, used once) is redeemed in the transaction
 * that writes, so a refused write leaves the solution unspent. Returns that transaction's work.
 */
export async function guestSubmission<T>(c: Call<any, any, { captchaToken: string }>, restaurantId: string, write: (trx: Executor) => Promise<T>): Promise<T> {
  const ip = guestIp(c);
  const guest = guestOf(c.services);
  guest.submitLimiter?.take(`${restaurantId}|${clientKey(ip)}`, c.services.clock.monotonic());
  // read before the transaction: on the hub's one connection a read from inside would wait for it
  const key = await guest.captchaKey();
  return c.services.tx.run(async (trx) => {
    await redeemChallenge(trx, key, c.body.captchaToken, ip, c.now);
    return write(trx);
  });
}
