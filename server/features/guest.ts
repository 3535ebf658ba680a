import { CAPTCHA_MAX_NUMBER, purgeChallenges } from '../domain/contact/captcha.ts';
import { GuestMessageDispatcher } from '../domain/guest/dispatcher.ts';
import { httpSmsSender, smtpSender } from '../domain/guest/transports.ts';
import { lazySecret, serviceSecret } from '../domain/service-secret.ts';
import { expireNotifiedEntries } from '../domain/waitlist/expire.ts';
import { RateLimiter, SharedBudget } from '../http/rate-limit.ts';
import type { Services } from '../services.ts';
import type { Feature } from './feature.ts';

/** Guest writes per address and restaurant: a venue's Wi-Fi puts many honest guests behind one address on the cloud. */
const SUBMISSIONS_BURST = 10;
const SUBMISSIONS_PER_HOUR = 20;
/**
 * Guest writes sent without a bot check: per address and restaurant (a kiosk, a family's
 * phones), and per restaurant across every address (a venue's busy evening). Past either, a write
 * needs a solved challenge (captcha_required) until the bucket refills.
 */
const UNCHECKED_PER_ADDRESS = { burst: 5, perHour: 10 };
const UNCHECKED_PER_RESTAURANT = { burst: 30, perHour: 120 };

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

export const guestFeature: Feature = {
  name: 'guest',
  install({ services, scheduler }) {
    const limits = services.config.guestRateLimit;
    services.guest = {
      dispatcher: new GuestMessageDispatcher(services, smtpSender(services.config.mail), httpSmsSender(services.config.sms)),
      captchaKey: lazySecret(() => serviceSecret(services.db, 'captcha_hmac', services.clock.now())),
      captchaMaxNumber: CAPTCHA_MAX_NUMBER,
      ipLimiter: limits ? new RateLimiter(limits.perMinutePerIp / 60, limits.perMinutePerIp) : null,
      submitLimiter: limits ? new RateLimiter(SUBMISSIONS_PER_HOUR / 3600, SUBMISSIONS_BURST) : null,
      restaurantLimiter: limits ? new SharedBudget(limits.perMinutePerRestaurant) : null,
      unchecked: limits
        ? {
            perAddress: new RateLimiter(UNCHECKED_PER_ADDRESS.perHour / 3600, UNCHECKED_PER_ADDRESS.burst),
            perRestaurant: new RateLimiter(UNCHECKED_PER_RESTAURANT.perHour / 3600, UNCHECKED_PER_RESTAURANT.burst),
          }
        : null,
    };
    scheduler.add({ name: 'waitlist-expiry', schedule: '*/30 * * * * *', run: (s) => expireNotifiedEntries(s.tx, s.clock.now()) });
    // Retries with backoff; fresh messages go out at once through wake() after their commit.
    scheduler.add({ name: 'guest-messages', schedule: '*/15 * * * * *', run: (s) => guestOf(s).dispatcher.wake() });
    scheduler.add({ name: 'captcha-cleanup', schedule: '41 * * * *', run: (s) => purgeChallenges(s.db, s.clock.now()) });
  },
  start({ services }) {
    // Whatever was queued before a restart goes out now.
    void guestOf(services).dispatcher.wake();
  },
  async stop({ services }) {
    await guestOf(services).dispatcher.stop();
  },
};
