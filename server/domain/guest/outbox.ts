import type { Executor } from '../../db/records.ts';
import type { GuestMessagesTable } from '../../db/tables/guest-messages.table.ts';
import { newId, PREFIXES } from '../../ids.ts';

export interface QueuedMessage {
  restaurantId: string | null;
  kind: GuestMessagesTable['kind'];
  channel: GuestMessagesTable['channel'];
  /** 'pending' goes out through the dispatcher; 'stored' has no transport and only shows in the dashboard */
  status: 'pending' | 'stored';
  recipient: string;
  replyTo?: string | null;
  subject?: string | null;
  body: string;
  lang?: string;
  waitlistEntryId?: string | null;
}

/** Queues a message inside the caller's transaction; it exists if and only if the change that asked for it commits. */
export async function enqueueMessage(trx: Executor, nowMs: number, m: QueuedMessage) {
  const now = Math.floor(nowMs / 1000);
  return trx
    .insertInto('guest_messages')
    .values({
      id: newId(PREFIXES.guestMessage, nowMs),
      restaurant_id: m.restaurantId,
      kind: m.kind,
      channel: m.channel,
      status: m.status,
      recipient: m.recipient,
      reply_to: m.replyTo ?? null,
      subject: m.subject ?? null,
      body: m.body,
      lang: m.lang ?? 'en',
      waitlist_entry_id: m.waitlistEntryId ?? null,
      attempts: 0,
      next_attempt_at: now,
      last_error: null,
      sent_at: null,
      created: now,
      updated: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}
