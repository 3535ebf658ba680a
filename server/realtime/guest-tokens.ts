import { sql } from 'kysely';
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

const resolvers = new Map<string, GuestTokenResolver>();

/**
 * The guest routes' limits, applied to a guest socket's authentication as to a guest
 * request: `address` before the token is looked up (so bad tokens count), `restaurant` once
 * it names one. Both throw 429. Registered by the guest routes, which own the budgets, so
 * a socket and a request from one phone draw on the same ones.
 */
export interface GuestLimits {
  address(services: Services, address: string): void;
  /** the restaurant's budget, shared fairly between the addresses asking */
  restaurant(services: Services, restaurantId: string, address: string): void;
}
let guestLimits: GuestLimits | null = null;
export function registerGuestLimits(limits: GuestLimits): void {
  guestLimits = limits;
}
export const guestLimitsOf = (): GuestLimits | null => guestLimits;

/**
 * The guest feature owns its tokens (the waitlist token is HMAC-signed there); it hands the
 * live feed a verifier per kind. `qr` has a default below that reads `qr_codes`.
 */
export function registerGuestTokenResolver(kind: string, resolve: GuestTokenResolver): void {
  resolvers.set(kind, resolve);
}

export const guestTokenResolver = (kind: string): GuestTokenResolver | undefined => resolvers.get(kind);

/**
 * The grant of a token that stands for one row of a row feed, e.g. the waitlist:
 * `registerGuestTokenResolver('waitlist', async (s, token) => { const e = await verify(token);
 * return e ? entryGrant(e.restaurant_id, 'waitlist_entries', e.id) : null; })`.
 */
export const entryGrant = (restaurantId: string, table: string, id: string): GuestGrant => ({
  restaurantId,
  mayFollow: async (topic) => topic.kind === 'entry' && topic.feed.table === table && topic.id === id,
});

/**
 * Default QR verifier: the QR record by its token, then an order may be followed when it was
 * placed from that QR code, or is at the QR code's table. Written against the columns the
 * orders feature is known to keep (`qr_codes.token`, `qr_codes.id`, `orders.qr_code_id`),
 * and tolerant of the table not existing yet.
 */
export const qrTokenResolver: GuestTokenResolver = async (services, token) => {
  let qr: { id: string; restaurant_id: string; table_id?: string | null; is_active?: number | string | boolean | null } | undefined;
  try {
    const r = await sql<NonNullable<typeof qr>>`select * from qr_codes where token = ${token}`.execute(services.db);
    qr = r.rows[0];
  } catch (err) {
    services.logger.warn({ err }, 'realtime: qr_codes lookup failed');
    return null;
  }
  // a disabled code is refused like an unknown one (as resolveToken does for the HTTP API)
  if (!qr || (qr.is_active !== undefined && Number(qr.is_active) !== 1)) return null;
  const { id: qrId, restaurant_id: restaurantId, table_id: tableId = null } = qr;
  return {
    restaurantId,
    async mayFollow(topic) {
      if (topic.kind !== 'order') return false;
      const order = await services.db
        .selectFrom('orders')
        .select(['qr_code_id', 'table_id'])
        .where('restaurant_id', '=', restaurantId)
        .where('id', '=', topic.id)
        .executeTakeFirst();
      if (!order) return false;
      return order.qr_code_id === qrId || (tableId !== null && order.table_id === tableId);
    },
  };
};

registerGuestTokenResolver('qr', qrTokenResolver);
