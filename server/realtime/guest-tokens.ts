import type { Services } from '../services.ts';
import type { Topic } from './topics.ts';

/**
 * What a guest token grants: one restaurant, and a test of each topic the guest asks for.
 * A QR token may follow the orders placed from that QR code (its own table); a waitlist
 * token its own entry.
 */
export interface GuestGrant {
  restaurantId: string;
  mayFollow(topic: Topic, services: Services): Promise<boolean>;
}

/** Verifies a guest token; null when it is unknown, tampered or expired. */
export type GuestTokenResolver = (services: Services, token: string) => Promise<GuestGrant | null>;

/**
 * The guest routes' limits, applied to a guest socket's authentication as to a guest
 * request: `address` before the token is looked up (so bad tokens count), `restaurant` once
 * it names one. Both throw 429. Declared by the guest feature from the guest routes, which own
 * the budgets, so a socket and a request from one phone draw on the same ones.
 */
export interface GuestLimits {
  address(services: Services, address: string): void;
  /** the restaurant's budget, shared fairly between the addresses asking */
  restaurant(services: Services, restaurantId: string, address: string): void;
}

/**
 * The grant of a token that stands for one row of a row feed, e.g. the waitlist's resolver (a
 * feature's `guestTokenResolvers`): `async (s, token) => { const e = await verify(token);
 * return e ? entryGrant(e.restaurant_id, 'waitlist_entries', e.id) : null; }`.
 */
export const entryGrant = (restaurantId: string, table: string, id: string): GuestGrant => ({
  restaurantId,
  mayFollow: async (topic) => topic.kind === 'entry' && topic.feed.table === table && topic.id === id,
});
