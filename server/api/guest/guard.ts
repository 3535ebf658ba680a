import type { Context } from 'koa';
import { callerIp, clientKey } from '../../http/client-ip.ts';
import { redeemChallenge } from '../../domain/contact/captcha.ts';
import { guestOf } from '../../features/guest.ts';
import type { Executor } from '../../db/records.ts';
import type { Call } from '../../http/route.ts';
import type { Services } from '../../services.ts';
import { ApiError } from '../../errors.ts';
import type { Settings } from '../../model/settings.ts';

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

/** Where a guest fetches the bot check to solve (named in captcha_required). */
export const CHALLENGE_PATH = '/public/captcha';

/**
 * Whether this write must carry a solved bot check: always when the venue says so, otherwise
 * only once the address, or the restaurant across all addresses, has sent its writes without
 * one (GuestServices.unchecked). A write let through unchecked is counted against both.
 */
function botCheckAsked(c: Call<any, any, any>, restaurantId: string, settings: Settings, client: string): string | null {
  if (settings.guest_bot_check === 'always') return 'This restaurant asks every guest for a bot check.';
  const unchecked = guestOf(c.services).unchecked;
  if (!unchecked) return null;
  const now = c.services.clock.monotonic();
  const address = `${restaurantId}|${client}`;
  if (!unchecked.perAddress.has(address, now)) return 'Many requests came from your network.';
  if (!unchecked.perRestaurant.has(restaurantId, now)) return 'This restaurant is receiving many requests.';
  unchecked.perAddress.tryTake(address, now);
  unchecked.perRestaurant.tryTake(restaurantId, now);
  return null;
}

/**
 * A guest's write (a waitlist join, a feedback): capped per address at the restaurant, then
 * the bot check (a solved proof-of-work challenge, used once) when one is sent or asked for.
 * Asked (no captchaToken past the rate, or the venue's setting): 403 captcha_required naming the
 * challenge's address. A sent token is redeemed in the transaction that writes, so a refused write
 * leaves the solution unspent. Returns that transaction's work.
 */
export async function guestSubmission<T>(
  c: Call<any, any, { captchaToken?: string | null }>,
  restaurant: { id: string; settings: Settings },
  write: (trx: Executor) => Promise<T>,
): Promise<T> {
  const ip = guestIp(c);
  const guest = guestOf(c.services);
  guest.submitLimiter?.take(`${restaurant.id}|${clientKey(ip)}`, c.services.clock.monotonic());
  const token = c.body.captchaToken ?? null;
  if (token === null) {
    const why = botCheckAsked(c, restaurant.id, restaurant.settings, clientKey(ip));
    if (why) {
      throw new ApiError(
        'captcha_required',
        `${why} Solve the bot check at ${CHALLENGE_PATH} and send the request again with its solution as captchaToken.`,
        'captchaToken',
        {},
        { challenge_url: CHALLENGE_PATH },
      );
    }
  }
  // read before the transaction: on the hub's one connection a read from inside would wait for it
  const key = token === null ? null : await guest.captchaKey();
  return c.services.tx.run(async (trx) => {
    if (token !== null) await redeemChallenge(trx, key!, token, ip, c.now);
    return write(trx);
  });
}
