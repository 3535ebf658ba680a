import { ApiError, mustExist } from '../../errors.ts';
import type { Executor } from '../../db/records.ts';
import { GUEST_LANGS } from '../../domain/guest/lang.ts';
import { assertWaitlistOffered, restaurantBySlug } from '../../domain/waitlist/access.ts';
import { addEntry, moveEntry, standing } from '../../domain/waitlist/entries.ts';
import { entryWithSnapshot, QueueSnapshot, snapshotBySlug } from '../../domain/waitlist/queue-snapshot.ts';
import { isOpenAt } from '../../domain/waitlist/open-now.ts';
import { signEntryToken, tokenEntryId, verifyEntryToken } from '../../domain/waitlist/token.ts';
import { readSettings } from '../../model/settings.ts';
import { defineRoute, type RouteSpec } from '../../http/route.ts';
import { guestLookup, guestSubmission, limitIp } from './guard.ts';
import { presentGuestStatus, WaitlistPageSchema, WaitlistStatusSchema } from '../../presenters/guest.ts';
import { JoinWaitlist, SlugParam, TokenParam } from './schema.ts';

const tag = 'Guest: waitlist';
const entryNotFound = () => new ApiError('WAITLIST_ENTRY_NOT_FOUND', 'No waitlist entry matches this token.', 'token');

/** Resolves a status token; any token that is not exactly what this server signed is 404. */
async function entryByToken(db: Executor, token: string) {
  const id = tokenEntryId(token);
  if (!id) throw entryNotFound();
  const entry = await db.selectFrom('waitlist_entries').selectAll().where('id', '=', id).executeTakeFirst();
  if (!entry) throw entryNotFound();
  const restaurant = await db.selectFrom('restaurants').selectAll().where('id', '=', entry.restaurant_id).executeTakeFirstOrThrow();
  if (!verifyEntryToken(token, id, restaurant.guest_secret)) throw entryNotFound();
  return { entry, restaurant, settings: readSettings(restaurant) };
}

/** The restaurant a public page names, with its queue snapshot; unknown slug → 404. */
async function snapshotForPage(db: Executor, slug: string, nowMs: number) {
  const snap = mustExist(await snapshotBySlug(db, slug, nowMs), 'restaurant', slug, 'slug');
  return snap;
}

/** As entryByToken, from the restaurant's queue snapshot. */
async function heldByToken(db: Executor, token: string, nowMs: number) {
  const id = tokenEntryId(token);
  if (!id) throw entryNotFound();
  const found = await entryWithSnapshot(db, id, nowMs);
  if (!found || !QueueSnapshot.tokenMatches(found.entry, token)) throw entryNotFound();
  return found;
}

export const routes: RouteSpec[] = [
  // The two pages every guest in the queue polls: answered from a snapshot of the queue that
  // follows the change log (domain/waitlist/queue-snapshot.ts), as bytes per distinct answer.
  defineRoute({
    method: 'get',
    path: '/public/restaurants/:slug/waitlist',
    errors: ['WAITLIST_DISABLED', 'WAITLIST_NOT_IN_PLAN'],
    response: WaitlistPageSchema,
    preflight: limitIp,
    summary: 'Join-page data: branding, open now, largest party, message, queue length and estimated wait, channels',
    tag,
    auth: 'none',
    sandbox: 'keyless',
    params: SlugParam,
    handler: async (c) => {
      const snap = await guestLookup(c, (db) => snapshotForPage(db, c.params.slug, c.now), (s) => s.restaurant.id);
      const { restaurant, settings } = snap;
      assertWaitlistOffered(restaurant, settings);
      const isOpen = snap.isOpen(c.now);
      const queue = snap.summary(c.now);
      c.ctx.type = 'application/json';
      return snap.bytes('page', `${isOpen}|${queue.estimatedWaitMinutes}`, () => ({
        object: 'waitlist_page' as const,
        restaurant: { name: restaurant.name, slug: restaurant.slug },
        branding: { name: restaurant.name },
        isOpen,
        maxPartySize: settings.waitlist.max_party_size,
        message: settings.waitlist.message,
        waitingParties: queue.waitingParties,
        estimatedWaitMinutes: queue.estimatedWaitMinutes,
        channels: settings.waitlist.channels,
      }));
    },
  }),

  defineRoute({
    method: 'post',
    path: '/public/restaurants/:slug/waitlist/join',
    errors: ['WAITLIST_ALREADY_JOINED', 'WAITLIST_CLOSED', 'WAITLIST_DISABLED', 'WAITLIST_NOT_IN_PLAN', 'WAITLIST_PARTY_TOO_LARGE', 'captcha_invalid', 'captcha_required'],
    response: WaitlistStatusSchema,
    preflight: limitIp,
    summary:
      'Join the live waitlist; returns the status and the signed token that is the only handle to the entry. Past a rate (or when the venue asks it always) 403 captcha_required: solve /public/captcha and send again with captchaToken',
    tag,
    auth: 'none',
    sandbox: 'keyless',
    params: SlugParam,
    body: JoinWaitlist,
    status: 201,
    handler: async (c) => {
      const { restaurant, settings } = await guestLookup(c, (db) => restaurantBySlug(db, c.params.slug), (f) => f.restaurant.id);
      if (!c.body.phone && !c.body.email) throw new ApiError('parameter_missing', 'Give a phone number or an email (or both).', 'phone');
      assertWaitlistOffered(restaurant, settings);
      if (c.body.partySize > settings.waitlist.max_party_size) {
        throw new ApiError(
          'WAITLIST_PARTY_TOO_LARGE',
          `Parties of up to ${settings.waitlist.max_party_size} can join online; please call the restaurant.`,
          'partySize',
        );
      }
      if (!isOpenAt(settings, c.now)) throw new ApiError('WAITLIST_CLOSED', 'The restaurant is closed now; the waitlist opens with it.');
      const actor = { restaurantId: restaurant.id, livemode: true, now: c.now };
      const { captchaToken: _, ...joining } = c.body;
      const entry = await guestSubmission(c, { id: restaurant.id, settings }, (trx) =>
        addEntry(trx, actor, { ...joining, lang: joining.lang ?? (c.ctx.acceptsLanguages([...GUEST_LANGS]) || null), source: 'online', consent: true }),
      );
      return {
        token: signEntryToken(entry.id, restaurant.guest_secret),
        ...presentGuestStatus(entry, restaurant, await standing(c.db, entry, settings, c.now)),
      };
    },
  }),

  defineRoute({
    method: 'get',
    path: '/public/waitlist/:token',
    errors: ['WAITLIST_ENTRY_NOT_FOUND'],
    response: WaitlistStatusSchema,
    preflight: limitIp,
    summary: "A party's place: state, position, parties ahead, estimated wait in minutes",
    tag,
    auth: 'none',
    sandbox: 'keyless',
    params: TokenParam,
    handler: async (c) => {
      const { snap, entry } = await guestLookup(c, (db) => heldByToken(db, c.params.token, c.now), (f) => f.snap.restaurant.id);
      const place = snap.standing(entry.row, c.now);
      if (!place) return presentGuestStatus(entry.row, snap.restaurant, await standing(c.db, entry.row, snap.settings, c.now));
      c.ctx.type = 'application/json';
      return snap.bytes(`entry:${entry.row.id}`, String(place.estimatedWaitMinutes), () => presentGuestStatus(entry.row, snap.restaurant, place));
    },
  }),

  defineRoute({
    method: 'post',
    path: '/public/waitlist/:token/leave',
    errors: ['WAITLIST_ENTRY_NOT_FOUND', 'WAITLIST_NOT_ACTIVE'],
    response: WaitlistStatusSchema,
    preflight: limitIp,
    summary: 'Leave the waitlist: waiting or notified → cancelled (the entry is kept); seated or cancelled → 409',
    tag,
    auth: 'none',
    sandbox: 'keyless',
    params: TokenParam,
    handler: async (c) => {
      const found = await guestLookup(c, (db) => entryByToken(db, c.params.token), (f) => f.restaurant.id);
      const actor = { restaurantId: found.restaurant.id, livemode: found.entry.livemode === 1, now: c.now };
      const saved = await c.services.tx.run(async (trx) => {
        const { entry } = await entryByToken(trx, c.params.token);
        return moveEntry(trx, actor, entry, 'cancelled', { cancelled_by: 'guest' });
      });
      return presentGuestStatus(saved, found.restaurant, await standing(c.db, saved, found.settings, c.now));
    },
  }),
];
