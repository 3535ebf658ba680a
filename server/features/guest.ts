import { CAPTCHA_MAX_NUMBER, purgeChallenges } from '../domain/contact/captcha.ts';
import { GuestMessageDispatcher } from '../domain/guest/dispatcher.ts';
import { httpSmsSender, smtpSender } from '../domain/guest/transports.ts';
import { lazySecret, serviceSecret } from '../domain/service-secret.ts';
import { expireNotifiedEntries } from '../domain/waitlist/expire.ts';
import { RateLimiter, SharedBudget } from '../http/rate-limit.ts';
import type { Feature } from './feature.ts';
import { guestOf } from '../http/guest-services.ts';
import { guestSocketLimits } from '../api/guest/socket-limits.ts';
import { waitlistFeed, waitlistTokenResolver } from '../realtime/feeds.ts';

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

export const guestFeature: Feature = {
  name: 'guest',
  realtimeFeeds: [waitlistFeed],
  // a waitlist token follows its own entry only, checked exactly as the guest routes check it
  guestTokenResolvers: { waitlist: waitlistTokenResolver },
  guestSocketLimits,
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
    scheduler.add({ name: 'waitlist-expiry', schedule: '*/30 * * * * *', run: (s) => expireNotifiedEntries(s, s.clock.now()) });
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
