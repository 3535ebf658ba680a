import type { Selectable } from 'kysely';
import type { FeedbackTable } from '../db/tables/feedback.table.ts';
import type { GuestMessagesTable } from '../db/tables/guest-messages.table.ts';
import { z } from 'zod';
import { WAITLIST_STATUSES } from '../model/waitlist.ts';
import { named, unix } from '../model/schemas.ts';
import type { WaitlistEntryRow } from '../db/tables/waitlist-entries.table.ts';

const WAITLIST_STATUS = z.enum(WAITLIST_STATUSES);

export const WaitlistEntrySchema = named(
  'WaitlistEntry',
  z.object({
    id: z.string(),
    object: z.literal('waitlist_entry'),
    created: unix(),
    updated: unix(),
    livemode: z.boolean(),
    status: WAITLIST_STATUS,
    source: z.enum(['online', 'walk_in']),
    guest_name: z.string(),
    party_size: z.number().int(),
    phone: z.string().nullable(),
    email: z.string().nullable(),
    consent: z.boolean(),
    notes: z.string().nullable(),
    lang: z.string(),
    customer: z.string().nullable(),
    notified_at: unix().nullable(),
    notified_channel: z.string().nullable(),
    seated_at: unix().nullable(),
    cancelled_at: unix().nullable(),
    cancelled_by: z.string().nullable(),
    expired_at: unix().nullable(),
    table: z.string().nullable().describe('the table the party was seated at (tbl_ id); null when seated without one'),
    reservation: z.string().nullable().describe('the sitting (rsv_ id, source "waitlist") that holds that table on the floor and in the day book'),
  }),
);
export type WaitlistEntry = z.output<typeof WaitlistEntrySchema>;

export const WaitlistStatusSchema = named(
  'WaitlistStatus',
  z.object({
    token: z.string().optional().describe('only in the answer to a join'),
    object: z.literal('waitlist_status'),
    status: WAITLIST_STATUS,
    guestName: z.string(),
    partySize: z.number().int(),
    position: z.number().int().nullable(),
    partiesAhead: z.number().int().nullable(),
    estimatedWaitMinutes: z.number().int().nullable(),
    joinedAt: unix(),
    notifiedAt: unix().nullable(),
    restaurant: z.object({ name: z.string(), slug: z.string() }),
  }),
);
export type WaitlistStatus = z.output<typeof WaitlistStatusSchema>;

/** The join page a guest opens before joining. */
export const WaitlistPageSchema = named(
  'WaitlistPage',
  z.object({
    object: z.literal('waitlist_page'),
    restaurant: z.object({ name: z.string(), slug: z.string() }),
    branding: z.object({ name: z.string() }),
    isOpen: z.boolean(),
    maxPartySize: z.number().int(),
    message: z.string().nullable(),
    waitingParties: z.number().int(),
    estimatedWaitMinutes: z.number().int(),
    channels: z.array(z.string()),
  }),
);

export const FeedbackSchema = named(
  'Feedback',
  z.object({
    id: z.string(),
    object: z.literal('feedback'),
    created: unix(),
    rating: z.number().int(),
    comment: z.string().nullable(),
    order: z.string().nullable(),
    source: z.string(),
  }),
);
export type Feedback = z.output<typeof FeedbackSchema>;

export const GuestMessageSchema = named(
  'GuestMessage',
  z.object({
    id: z.string(),
    object: z.literal('guest_message'),
    created: unix(),
    kind: z.enum(['waitlist_notice', 'contact']),
    channel: z.enum(['email', 'sms']),
    status: z.enum(['pending', 'sent', 'stored']),
    recipient: z.string(),
    subject: z.string().nullable(),
    body: z.string(),
    waitlist_entry: z.string().nullable(),
    attempts: z.number().int(),
    next_attempt_at: unix().nullable(),
    last_error: z.string().nullable(),
    sent_at: unix().nullable(),
  }),
);
export type GuestMessage = z.output<typeof GuestMessageSchema>;

/** The staff (v1) view of an entry; also the object of every waitlist.* event. */
export function presentWaitlistEntry(row: WaitlistEntryRow): WaitlistEntry {
  return {
    id: row.id,
    object: 'waitlist_entry',
    created: row.created,
    updated: row.updated,
    livemode: row.livemode === 1,
    status: row.status,
    source: row.source,
    guest_name: row.guest_name,
    party_size: row.party_size,
    phone: row.phone,
    email: row.email,
    consent: row.consent === 1,
    notes: row.notes,
    lang: row.lang,
    customer: row.customer_id,
    notified_at: row.notified_at,
    notified_channel: row.notified_channel,
    seated_at: row.seated_at,
    cancelled_at: row.cancelled_at,
    cancelled_by: row.cancelled_by,
    table: row.table_id ?? null,
    reservation: row.reservation_id ?? null,
    expired_at: row.expired_at,
  };
}

/** The guest's view through the token: no contact details, only where the party stands. */
export function presentGuestStatus(
  row: WaitlistEntryRow,
  restaurant: { name: string; slug: string },
  standing: { position: number | null; partiesAhead: number | null; estimatedWaitMinutes: number | null },
): WaitlistStatus {
  return {
    object: 'waitlist_status',
    status: row.status,
    guestName: row.guest_name,
    partySize: row.party_size,
    position: standing.position,
    partiesAhead: standing.partiesAhead,
    estimatedWaitMinutes: standing.estimatedWaitMinutes,
    joinedAt: row.created,
    notifiedAt: row.notified_at,
    restaurant: { name: restaurant.name, slug: restaurant.slug },
  };
}

export function presentFeedback(row: Selectable<FeedbackTable>): Feedback {
  return {
    id: row.id,
    object: 'feedback',
    created: row.created,
    rating: row.rating,
    comment: row.comment,
    order: row.order_id,
    source: row.source,
  };
}

/** An outbox message as the dashboard lists it. */
export function presentGuestMessage(row: Selectable<GuestMessagesTable>): GuestMessage {
  return {
    id: row.id,
    object: 'guest_message',
    created: row.created,
    kind: row.kind,
    channel: row.channel,
    status: row.status,
    recipient: row.recipient,
    subject: row.subject,
    body: row.body,
    waitlist_entry: row.waitlist_entry_id,
    attempts: row.attempts,
    next_attempt_at: row.status === 'pending' ? row.next_attempt_at : null,
    last_error: row.last_error,
    sent_at: row.sent_at,
  };
}
