import type { GuestMessageDispatcher } from '../domain/guest/dispatcher.ts';
import type { RateLimiter, SharedBudget } from './rate-limit.ts';
import type { Services } from '../services.ts';

// What the guest feature (features/guest.ts) adds to Services; the guest routes and the
// operator feature find it here, below both.
export interface GuestServices {
  /** works off the guest_messages outbox (waitlist notices, contact mail) */
  dispatcher: GuestMessageDispatcher;
  /** HMAC key of captcha challenges, kept in the database: a restart or another process accepts what this one issued */
  captchaKey(): Promise<string>;
  /** proof-of-work difficulty (the solver tries up to this many hashes); tests lower it */
  captchaMaxNumber: number;
  ipLimiter: RateLimiter | null;
  /** what one address may write at one restaurant (waitlist joins, feedback): a burst of a table's worth, then a few an hour */
  submitLimiter: RateLimiter | null;
  /** a restaurant's budget across all guests, shared fairly between the addresses asking (see SharedBudget) */
  restaurantLimiter: SharedBudget | null;
  /** the writes an address, and a restaurant, may send without a bot check; null: no rate asks for one */
  unchecked: { perAddress: RateLimiter; perRestaurant: RateLimiter } | null;
}

// Optional in the type only because server.ts builds Services before features install;
// install() always sets it, and guestOf() reads it.
declare module '../services.ts' {
  interface Services {
    guest?: GuestServices;
  }
}

export function guestOf(services: Services): GuestServices {
  if (!services.guest) throw new Error('guest feature not installed');
  return services.guest;
}
