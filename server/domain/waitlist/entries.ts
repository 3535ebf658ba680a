import { presentWaitlistEntry } from '../../presenters/guest.ts';
import type { Executor } from '../../db/records.ts';
import { insertRecord, updateRecord } from '../../db/records.ts';
import { ApiError, isUniqueViolation, notFound } from '../../errors.ts';
import { newId, PREFIXES } from '../../ids.ts';
import type { Actor } from '../../services.ts';
import { findOrCreateCustomer, normalizeEmail, normalizePhone } from '../customers/match-customer.ts';
import { emitEvent } from '../events/emit.ts';
import type { Settings } from '../../model/settings.ts';
import { modeOf } from '../modes.ts';
import { seconds } from '../time.ts';
import { guestLang } from '../guest/lang.ts';
import { enqueueMessage } from '../guest/outbox.ts';
import { buildNotice } from './notice.ts';
import { estimateWaitMinutes, seatingPace, type Queue } from './estimate.ts';
import type { WaitlistEntryRow } from '../../db/tables/waitlist-entries.table.ts';
import type { EventType } from '../../model/events.ts';
import { ACTIVE_WAITLIST_STATUSES, type WaitlistStatus } from '../../model/waitlist.ts';

type Status = WaitlistStatus;
export const ACTIVE = ACTIVE_WAITLIST_STATUSES;

export interface NewEntry {
  guestName: string;
  partySize: number;
  phone?: string | null;
  email?: string | null;
  consent: boolean;
  notes?: string | null;
  source: 'online' | 'walk_in';
  /** a language tag; one not offered means English */
  lang?: string | null;
}

/** The live queue: the only one guests see (online joins are always live). */
const LIVE = 1;

/** The queue an entry stands in: its restaurant's, of its own mode. */
const queueOf = (entry: WaitlistEntryRow): Queue => ({ restaurantId: entry.restaurant_id, livemode: entry.livemode });

/**
 * An entry as one key sees it: of the key's restaurant and of its mode. Like orders, sandbox
 * walk-ins stay out of the live queue staff work from, and live guests out of sandbox
 * integrations; the other mode's entry is simply not found.
 */
export async function findEntry(db: Executor, actor: Pick<Actor, 'restaurantId' | 'livemode'>, id: string) {
  return db
    .selectFrom('waitlist_entries')
    .selectAll()
    .where('restaurant_id', '=', actor.restaurantId)
    .where('livemode', '=', modeOf(actor))
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * Adds a party. Joins are refused when the same phone (compared in E.164) or email is already
 * waiting or notified in the same mode: one guest, one place in the queue. A sandbox walk-in
 * with a real guest's phone is test data and must not keep that guest out of the live queue.
 */
export async function addEntry(trx: Executor, actor: Actor, input: NewEntry) {
  const phone = normalizePhone(input.phone);
  const email = normalizeEmail(input.email);
  const alreadyJoined = (field: string) =>
    new ApiError('WAITLIST_ALREADY_JOINED', 'A party with this phone number or email is already on the waitlist.', field);
  if (phone || email) {
    const dup = await trx
      .selectFrom('waitlist_entries')
      .select('id')
      .where('restaurant_id', '=', actor.restaurantId)
      .where('livemode', '=', modeOf(actor))
      .where('status', 'in', ACTIVE)
      .where((eb) => eb.or([...(phone ? [eb('phone', '=', phone)] : []), ...(email ? [eb('email', '=', email)] : [])]))
      .executeTakeFirst();
    if (dup) throw alreadyJoined(phone ? 'phone' : 'email');
  }
  // Contact details only become a customer record when the guest agreed to be contacted.
  const customer = input.consent ? await findOrCreateCustomer(trx, actor, { name: input.guestName, phone, email }) : null;
  const now = seconds(actor);
  // A join racing this one (PostgreSQL) may have taken the place since the check above:
  // the active-contact indexes (migration 0301) refuse the second, with the same answer.
  const row = await insertRecord(trx, 'waitlist_entries', {
    id: newId(PREFIXES.waitlistEntry, actor.now),
    restaurant_id: actor.restaurantId,
    guest_name: input.guestName,
    party_size: input.partySize,
    phone,
    email,
    consent: input.consent ? 1 : 0,
    source: input.source,
    status: 'waiting',
    notes: input.notes ?? null,
    lang: guestLang(input.lang),
    customer_id: customer?.id ?? null,
    livemode: modeOf(actor),
    notified_at: null,
    notified_channel: null,
    seated_at: null,
    cancelled_at: null,
    cancelled_by: null,
    expired_at: null,
    table_id: null,
    reservation_id: null,
    created: now,
    updated: now,
  }).catch((err: unknown) => {
    if (!isUniqueViolation(err)) throw err;
    // the index's name (PostgreSQL) or its columns (SQLite) say which contact was taken
    const which = `${(err as Error).message} ${(err as { constraint?: string }).constraint ?? ''}`;
    throw alreadyJoined(which.includes('email') ? 'email' : 'phone');
  });
  await emitEvent(trx, actor, 'waitlist.joined', presentWaitlistEntry(row));
  return row;
}

const EVENT_OF: Record<Status, EventType> = {
  waiting: 'waitlist.joined',
  notified: 'waitlist.notified',
  seated: 'waitlist.seated',
  cancelled: 'waitlist.cancelled',
  expired: 'waitlist.expired',
};

/**
 * Moves an active entry (waiting or notified) to `to`, through the change log, with its
 * waitlist.* event. Anything else is 409 WAITLIST_NOT_ACTIVE. A notified entry may be
 * notified again (a second call restarts its expiry clock).
 */
export async function moveEntry(
  trx: Executor,
  actor: Actor,
  entry: WaitlistEntryRow,
  to: Exclude<Status, 'waiting'>,
  patch: Partial<Pick<WaitlistEntryRow, 'notified_channel' | 'cancelled_by' | 'table_id' | 'reservation_id'>> = {},
) {
  if (!ACTIVE.includes(entry.status)) {
    throw new ApiError('WAITLIST_NOT_ACTIVE', `This waitlist entry is ${entry.status} and can no longer change.`);
  }
  const now = seconds(actor);
  const stamp =
    to === 'notified' ? { notified_at: now } : to === 'seated' ? { seated_at: now } : to === 'cancelled' ? { cancelled_at: now } : { expired_at: now };
  // Claim the row as it was read first: a concurrent move of the same entry (it holds the
  // row lock until commit) leaves nothing to claim, and this one is refused. That includes a
  // re-notify, which restarts the expiry clock: an expiry read before it must not act.
  // The claim writes nothing (a column set to itself): a value set here, behind the change
  // log, would already be stored when updateRecord compares, so its change would not claim
  // it and the other node would keep its own `updated` for good (issue 45).
  let claim = trx
    .updateTable('waitlist_entries')
    .set((eb) => ({ updated: eb.ref('updated') }))
    .where('id', '=', entry.id)
    .where('restaurant_id', '=', entry.restaurant_id)
    .where('status', '=', entry.status);
  claim = entry.notified_at === null ? claim.where('notified_at', 'is', null) : claim.where('notified_at', '=', entry.notified_at);
  const claimed = await claim.executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) {
    throw new ApiError('WAITLIST_NOT_ACTIVE', 'This waitlist entry changed meanwhile; reload it.');
  }
  const saved = await updateRecord(trx, 'waitlist_entries', { id: entry.id, restaurant_id: entry.restaurant_id }, {
    status: to,
    ...stamp,
    ...patch,
    updated: now,
  });
  if (!saved) throw notFound('waitlist entry', entry.id);
  await emitEvent(trx, actor, EVENT_OF[to], presentWaitlistEntry(saved), { previous_status: entry.status });
  return saved;
}

/**
 * Calls a party back. The message goes to the outbox in the same transaction: `pending`
 * when the channel has a transport (SMTP, SMS gateway) and the dispatcher sends it after
 * commit; `stored` when it has none, for staff to see in the dashboard outbox.
 */
export async function notifyEntry(
  trx: Executor,
  actor: Actor,
  entry: WaitlistEntryRow,
  opts: { channel?: 'email' | 'sms'; transports: { email: boolean; sms: boolean }; restaurantName: string; settings: Settings },
) {
  const channel = opts.channel ?? (entry.phone ? 'sms' : entry.email ? 'email' : null);
  const recipient = channel === 'sms' ? entry.phone : channel === 'email' ? entry.email : null;
  if (!ACTIVE.includes(entry.status)) {
    throw new ApiError('WAITLIST_NOT_ACTIVE', `This waitlist entry is ${entry.status} and can no longer change.`);
  }
  if (channel && !recipient) {
    throw new ApiError('parameter_invalid', `This party left no ${channel === 'sms' ? 'phone number' : 'email'}.`, 'channel');
  }
  const saved = await moveEntry(trx, actor, entry, 'notified', { notified_channel: channel ?? 'in_person' });
  if (channel && recipient) {
    const lang = guestLang(entry.lang);
    const notice = buildNotice(lang, {
      guestName: entry.guest_name,
      partySize: entry.party_size,
      restaurantName: opts.restaurantName,
      minutes: opts.settings.waitlist.notify_expiry_minutes,
    });
    await enqueueMessage(trx, actor.now, {
      restaurantId: actor.restaurantId,
      kind: 'waitlist_notice',
      channel,
      // a sandbox party's notice is only stored: a test must not text a real phone
      status: opts.transports[channel] && entry.livemode === 1 ? 'pending' : 'stored',
      recipient,
      subject: channel === 'email' ? notice.subject : null,
      body: notice.body,
      lang,
      waitlistEntryId: entry.id,
    });
  }
  return saved;
}

/**
 * Where an entry stands: position among the active parties of its own queue (oldest first)
 * and the estimated wait. A live guest is not behind sandbox walk-ins, nor paced by them.
 */
export async function standing(db: Executor, entry: WaitlistEntryRow, settings: Settings, nowMs: number) {
  if (!ACTIVE.includes(entry.status)) return { position: null, partiesAhead: null, estimatedWaitMinutes: null };
  const ahead = await db
    .selectFrom('waitlist_entries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('restaurant_id', '=', entry.restaurant_id)
    .where('livemode', '=', entry.livemode)
    .where('status', 'in', ACTIVE)
    .where((eb) => eb.or([eb('created', '<', entry.created), eb.and([eb('created', '=', entry.created), eb('id', '<', entry.id)])]))
    .executeTakeFirstOrThrow();
  const partiesAhead = Number(ahead.n);
  if (entry.status === 'notified') return { position: partiesAhead + 1, partiesAhead, estimatedWaitMinutes: 0 };
  const pace = await seatingPace(db, queueOf(entry), Math.floor(nowMs / 1000), settings.waitlist.default_wait_minutes_per_party);
  return { position: partiesAhead + 1, partiesAhead, estimatedWaitMinutes: estimateWaitMinutes(partiesAhead, pace) };
}

/**
 * The queue as the join page shows it: parties waiting now and what a party joining now can
 * expect. A guest joins the live queue, so only live parties and seatings count.
 */
export async function queueSummary(db: Executor, restaurantId: string, settings: Settings, nowMs: number) {
  const queue: Queue = { restaurantId, livemode: LIVE };
  const r = await db
    .selectFrom('waitlist_entries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('restaurant_id', '=', queue.restaurantId)
    .where('livemode', '=', queue.livemode)
    .where('status', 'in', ACTIVE)
    .executeTakeFirstOrThrow();
  const waiting = Number(r.n);
  const pace = await seatingPace(db, queue, Math.floor(nowMs / 1000), settings.waitlist.default_wait_minutes_per_party);
  return { waitingParties: waiting, estimatedWaitMinutes: estimateWaitMinutes(waiting, pace), paceBasis: pace.basis };
}
