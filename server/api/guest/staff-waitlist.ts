import { modeOf } from '../../domain/modes.ts';
import { getRestaurant, getSettings } from '../../domain/restaurants/restaurants.ts';
import { addEntry, findEntry, moveEntry, notifyEntry } from '../../domain/waitlist/entries.ts';
import { seatEntry } from '../../domain/waitlist/seat.ts';
import { mustExist, notFound } from '../../errors.ts';
import { guestOf } from '../../features/guest.ts';
import { mapPage, NEWEST_FIRST, paginate, type SortKey } from '../../http/pagination.ts';
import { defineRoute, idParam, type Call, type RouteSpec } from '../../http/route.ts';
import { GuestMessageSchema, presentGuestMessage, presentWaitlistEntry, WaitlistEntrySchema } from '../../presenters/guest.ts';
import { AddWalkIn, ListMessages, ListWaitlist, NotifyEntry, SeatEntry } from './schema.ts';
import { listOf } from '../../model/schemas.ts';

const tag = 'Waitlist';

/** The queue order: first come, first served. */
const QUEUE_ORDER: SortKey[] = [
  { column: 'waitlist_entries.created', field: 'created', direction: 'asc' },
  { column: 'waitlist_entries.id', field: 'id', direction: 'asc' },
];

/** The entry of the path, of the key's restaurant and mode: the other mode's is 404 like an unknown one. */
async function loadEntry(c: Call<{ id: string }, any, any>, db = c.db) {
  const entry = mustExist(await findEntry(db, c.actor(), c.params.id), 'waitlist entry', c.params.id);
  return entry;
}

export const routes: RouteSpec[] = [
  defineRoute({
    method: 'get',
    path: '/v1/waitlist',
    response: listOf(WaitlistEntrySchema),
    summary: 'List waitlist entries in queue order (oldest first); online joins carry source "online"',
    tag,
    auth: 'secret',
    sandbox: 'own_mode',
    scope: 'waitlist:read',
    query: ListWaitlist,
    handler: async (c) => {
      // a key lists its own mode's queue only: sandbox walk-ins never reach the live host stand
      let qb = c.db
        .selectFrom('waitlist_entries')
        .selectAll()
        .where('restaurant_id', '=', c.actor().restaurantId)
        .where('livemode', '=', modeOf(c.actor()));
      if (c.query.status) qb = qb.where('status', '=', c.query.status);
      if (c.query.source) qb = qb.where('source', '=', c.query.source);
      const page = await paginate(qb, { ...c.query, keys: QUEUE_ORDER, url: '/v1/waitlist' });
      return mapPage(page, async (rows) => rows.map(presentWaitlistEntry));
    },
  }),

  defineRoute({
    method: 'get',
    path: '/v1/waitlist/messages',
    response: listOf(GuestMessageSchema),
    summary: 'The notice outbox, newest first: sent, pending (retrying) and stored (no SMTP/SMS configured) messages',
    tag,
    auth: 'secret',
    sandbox: 'own_mode',
    scope: 'waitlist:read',
    query: ListMessages,
    handler: async (c) => {
      let qb = c.db
        .selectFrom('guest_messages')
        .selectAll()
        .where('restaurant_id', '=', c.actor().restaurantId)
        .where('kind', '=', 'waitlist_notice')
        // messages carry no mode of their own: they go with the entry they call back
        // (looked up per message by id, so a page reads a page of entries, not the whole history)
        .where(({ exists, selectFrom }) =>
          exists(
            selectFrom('waitlist_entries')
              .select('waitlist_entries.id')
              .whereRef('waitlist_entries.id', '=', 'guest_messages.waitlist_entry_id')
              .where('waitlist_entries.livemode', '=', modeOf(c.actor())),
          ),
        );
      if (c.query.status) qb = qb.where('status', '=', c.query.status);
      const page = await paginate(qb, { ...c.query, keys: NEWEST_FIRST('guest_messages'), url: '/v1/waitlist/messages' });
      return mapPage(page, async (rows) => rows.map(presentGuestMessage));
    },
  }),

  defineRoute({
    method: 'post',
    path: '/v1/waitlist',
    errors: ['WAITLIST_ALREADY_JOINED'],
    response: WaitlistEntrySchema,
    summary: 'Add a walk-in party (no opening-hours or party-size check: staff decide)',
    tag,
    auth: 'secret',
    sandbox: 'own_mode',
    scope: 'waitlist:write',
    body: AddWalkIn,
    idempotent: true,
    status: 201,
    handler: async (c) => {
      const b = c.body;
      const row = await addEntry(c.db, c.actor(), {
        guestName: b.guest_name,
        partySize: b.party_size,
        phone: b.phone,
        email: b.email,
        consent: b.consent ?? false,
        notes: b.notes,
        lang: b.lang,
        source: 'walk_in',
      });
      return presentWaitlistEntry(row);
    },
  }),

  defineRoute({
    method: 'get',
    path: '/v1/waitlist/:id',
    response: WaitlistEntrySchema,
    summary: 'Retrieve a waitlist entry',
    tag,
    auth: 'secret',
    sandbox: 'own_mode',
    scope: 'waitlist:read',
    params: idParam('wl_ id'),
    handler: async (c) => presentWaitlistEntry(await loadEntry(c)),
  }),

  defineRoute({
    method: 'post',
    path: '/v1/waitlist/:id/notify',
    errors: ['WAITLIST_NOT_ACTIVE'],
    response: WaitlistEntrySchema,
    summary: "Call the party back by the chosen channel (default: SMS if a phone was given, else email); starts the expiry clock",
    tag,
    auth: 'secret',
    sandbox: 'own_mode',
    scope: 'waitlist:write',
    params: idParam('wl_ id'),
    body: NotifyEntry,
    handler: async (c) => {
      const actor = c.actor();
      const guest = guestOf(c.services);
      const restaurant = await getRestaurant(c.db, actor.restaurantId);
      const settings = await getSettings(c.db, actor.restaurantId);
      const saved = await c.services.tx.run(async (trx) =>
        notifyEntry(trx, actor, await loadEntry(c, trx), {
          channel: c.body?.channel,
          transports: guest.dispatcher.transports,
          restaurantName: restaurant.name,
          settings,
        }),
      );
      void guest.dispatcher.wake();
      return presentWaitlistEntry(saved);
    },
  }),

  defineRoute({
    method: 'post',
    path: '/v1/waitlist/:id/seat',
    errors: ['WAITLIST_NOT_ACTIVE', 'table_unavailable'],
    response: WaitlistEntrySchema,
    summary:
      'Seat a waiting or notified party; with a table, the party holds it from now for a sitting (a seated reservation, source "waitlist") so the floor and the day book show it taken',
    tag,
    auth: 'secret',
    sandbox: 'own_mode',
    scope: 'waitlist:write',
    params: idParam('wl_ id'),
    body: SeatEntry,
    handler: async (c) => {
      const saved = await c.services.tx.run(async (trx) => seatEntry(trx, c.actor(), await loadEntry(c, trx), c.body?.table ?? undefined));
      return presentWaitlistEntry(saved);
    },
  }),

  defineRoute({
    method: 'delete',
    path: '/v1/waitlist/:id',
    errors: ['WAITLIST_NOT_ACTIVE'],
    response: WaitlistEntrySchema,
    summary: 'Remove a party from the queue: it becomes cancelled (kept, cancelled_by "staff")',
    tag,
    auth: 'secret',
    sandbox: 'own_mode',
    scope: 'waitlist:write',
    params: idParam('wl_ id'),
    handler: async (c) => {
      const saved = await c.services.tx.run(async (trx) =>
        moveEntry(trx, c.actor(), await loadEntry(c, trx), 'cancelled', { cancelled_by: 'staff' }),
      );
      return presentWaitlistEntry(saved);
    },
  }),
];
