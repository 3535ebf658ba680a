import { presentWaitlistEntry } from '../presenters/guest.ts';
import { presentReservation } from '../presenters/reservations.ts';
import { tokenEntryId, verifyEntryToken } from '../domain/waitlist/token.ts';
import { entryGrant, type GuestTokenResolver } from './guest-tokens.ts';
import type { RowFeed } from './topics.ts';
import { presentStation } from '../presenters/stations.ts';
import { presentMenuItem } from '../presenters/menu-items.ts';
import type { MenuItemsTable } from '../db/tables/menu-items.table.ts';
import type { Selectable } from 'kysely';
import type { StationsTable } from '../db/tables/stations.table.ts';
import { GUEST_FIELDS, project } from '../presenters/public-orders.ts';
import { findOrder } from '../domain/orders/find-order.ts';
import { assertGuestOrder } from '../domain/orders/qr-codes.ts';
import { ApiError } from '../errors.ts';
import type { GuestOrderView } from './changes.ts';
import type { WaitlistEntryRow } from '../db/tables/waitlist-entries.table.ts';
import type { ReservationRow } from '../db/tables/reservations.table.ts';

/*
 * The row feeds and guest token kinds of the live feed, as data: each feature declares the
 * ones that are its own (server/features: `realtimeFeeds`, `guestTokenResolvers`). Live
 * messages carry the same objects as the API and the events.
 */

export const reservationsFeed: RowFeed = {
  table: 'reservations',
  type: 'reservation',
  collection: 'reservations',
  entry: null,
  scope: 'reservations:read',
  present: (row) => presentReservation(row as unknown as ReservationRow),
};

export const waitlistFeed: RowFeed = {
  table: 'waitlist_entries',
  type: 'waitlist_entry',
  collection: 'waitlist',
  entry: 'waitlist_entry',
  scope: 'waitlist:read',
  present: (row) => presentWaitlistEntry(row as unknown as WaitlistEntryRow),
};

// Stations: a kitchen screen (a paired tablet's key reads orders only) takes a station's new
// name and ticket colours when Settings changes them, without a reload.
export const stationsFeed: RowFeed = {
  table: 'stations',
  type: 'station',
  collection: 'stations',
  entry: null,
  scope: 'orders:read',
  present: (row) => presentStation(row as unknown as Selectable<StationsTable>),
};

// Paired screens: Settings → Screens hears a tablet pair (its key is made) or be unpaired (its
// key revoked) and loads /v1/devices again. Only the key's id and state: never its hash, and
// nothing of the integrations' keys.
export const devicesFeed: RowFeed = {
  table: 'api_keys',
  type: 'device',
  collection: 'devices',
  entry: null,
  scope: 'settings:read',
  present: (row) => (row.kind === 'widget' ? { id: row.id, object: 'device', revoked_at: row.revoked_at ?? null } : undefined),
};

// The menu: a dish 86'd (or back, renamed, repriced) reaches staff pages and the guests' open
// menus at once. A guest is told which dish changed and whether it can be ordered, nothing
// more (no cost, no SKU): the guest page then reads its public menu again, which applies the
// category's hours and the translations as it always does.
export const menuFeed: RowFeed = {
  table: 'menu_items',
  type: 'menu_item',
  collection: 'menu',
  entry: null,
  scope: 'menu:read',
  present: (row) => presentMenuItem(row as unknown as Selectable<MenuItemsTable>),
  presentGuest: (row) => ({ id: row.id, object: 'menu_item', is_available: Number(row.is_active) === 1 && Number(row.is_available) === 1 }),
};

// A waitlist token follows its own entry only; it is checked exactly as the guest routes check it.
export const waitlistTokenResolver: GuestTokenResolver = async (services, token) => {
  const id = tokenEntryId(token);
  if (!id) return null;
  const entry = await services.db
    .selectFrom('waitlist_entries')
    .innerJoin('restaurants', 'restaurants.id', 'waitlist_entries.restaurant_id')
    .select(['waitlist_entries.restaurant_id', 'restaurants.guest_secret'])
    .where('waitlist_entries.id', '=', id)
    .executeTakeFirst();
  if (!entry || !verifyEntryToken(token, id, entry.guest_secret)) return null;
  return entryGrant(entry.restaurant_id, 'waitlist_entries', id);
};

// A QR token follows exactly the orders GET /public/qr/<token>/orders/<id> shows it (live
// orders opened from a QR code of its table, or from the code itself), and sees them as that
// route shows them: the guest projection, without contact details.
export const guestOrderView: GuestOrderView = (db, rows) => project(db, rows, GUEST_FIELDS);

export const qrTokenResolver: GuestTokenResolver = async (services, token) => {
  const qr = await services.db.selectFrom('qr_codes').selectAll().where('token', '=', token).executeTakeFirst();
  if (!qr || Number(qr.is_active) !== 1) return null;
  return {
    restaurantId: qr.restaurant_id,
    async mayFollow(topic) {
      // the menu it orders from: which dish can be ordered right now
      if (topic.kind === 'collection' && topic.feed.table === 'menu_items') return true;
      if (topic.kind !== 'order') return false;
      const found = await findOrder(services.db, { restaurantId: qr.restaurant_id, livemode: true }, topic.id);
      try {
        await assertGuestOrder(services.db, qr, found?.order, topic.id);
        return true;
      } catch (err) {
        if (err instanceof ApiError && err.code === 'resource_missing') return false;
        throw err;
      }
    },
  };
};
