import type { Selectable } from 'kysely';
import type { FeedbackTable } from '../../db/tables/feedback.table.ts';
import type { GuestMessagesTable } from '../../db/tables/guest-messages.table.ts';
import type { WaitlistEntriesTable } from '../../db/tables/waitlist-entries.table.ts';

export type EntryRow = Selectable<WaitlistEntriesTable>;

/** The staff (v1) view of an entry; also the object of every waitlist.* event. */
export function presentWaitlistEntry(row: EntryRow) {
  return {
    id: row.id,
    object: 'waitlist_entry' as const,
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
    expired_at: row.expired_at,
  };
}

/** The guest's view through the token: no contact details, only where the party stands. */
export function presentGuestStatus(
  row: EntryRow,
  restaurant: { name: string; slug: string },
  standing: { position: number | null; partiesAhead: number | null; estimatedWaitMinutes: number | null },
) {
  return {
    object: 'waitlist_status' as const,
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

export function presentFeedback(row: Selectable<FeedbackTable>) {
  return {
    id: row.id,
    object: 'feedback' as const,
    created: row.created,
    rating: row.rating,
    comment: row.comment,
    order: row.order_id,
    source: row.source,
  };
}

/** An outbox message as the dashboard lists it. */
export function presentGuestMessage(row: Selectable<GuestMessagesTable>) {
  return {
    id: row.id,
    object: 'guest_message' as const,
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
