import { guestOf } from '../../http/guest-services.ts';
import type { GuestLimits } from '../../realtime/guest-tokens.ts';
import { limitRestaurant } from './guard.ts';

// A guest socket (a QR or waitlist token on /realtime) draws on the guest routes' budgets:
// the same per-address bucket as limitIp, the same per-restaurant one as limitRestaurant.
export const guestSocketLimits: GuestLimits = {
  address: (services, address) => guestOf(services).ipLimiter?.take(`ip:${address}`, services.clock.monotonic()),
  restaurant: (services, restaurantId, address) => limitRestaurant(services, restaurantId, address),
};
