/**
 * Outbox of guest-facing messages (waitlist notices, contact-form mails). Local bookkeeping,
 * not a replicated record: each node sends what it queued. Written in the transaction of the
 * change that asks for it and worked off after commit by the dispatcher.
 */
export interface GuestMessagesTable {
  id: string;
  /** null for platform mail (the contact form) */
  restaurant_id: string | null;
  kind: 'waitlist_notice' | 'contact';
  channel: 'email' | 'sms';
  /** 'pending' (queued, retried with backoff), 'sent', or 'stored' (no transport: shown in the dashboard outbox) */
  status: 'pending' | 'sent' | 'stored';
  recipient: string;
  reply_to: string | null;
  subject: string | null;
  body: string;
  lang: string;
  waitlist_entry_id: string | null;
  attempts: number;
  /** Unix seconds */
  next_attempt_at: number;
  last_error: string | null;
  /** Unix seconds; the dispatcher that claimed the message holds it until then (a lapsed claim means its holder died) */
  lease_until: number | null;
  lease_owner: string | null;
  sent_at: number | null;
  created: number;
  updated: number;
}

declare module '../replication.ts' {
  /** local: this node's bookkeeping, outside the change log */
  interface LocalTables {
    guest_messages: true;
  }
}
