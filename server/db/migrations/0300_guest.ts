import type { Kysely } from 'kysely';

// Portable: booleans 0/1, times integer Unix seconds (bigint), JSON as text.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('waitlist_entries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('restaurant_id', 'text', (c) => c.notNull())
    .addColumn('guest_name', 'text', (c) => c.notNull())
    .addColumn('party_size', 'integer', (c) => c.notNull())
    .addColumn('phone', 'text')
    .addColumn('email', 'text')
    .addColumn('consent', 'integer', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('notes', 'text')
    .addColumn('customer_id', 'text')
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('notified_at', 'bigint')
    .addColumn('notified_channel', 'text')
    .addColumn('seated_at', 'bigint')
    .addColumn('cancelled_at', 'bigint')
    .addColumn('cancelled_by', 'text')
    .addColumn('expired_at', 'bigint')
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('updated', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('waitlist_entries_queue').on('waitlist_entries').columns(['restaurant_id', 'status', 'created']).execute();
  await db.schema.createIndex('waitlist_entries_seated').on('waitlist_entries').columns(['restaurant_id', 'seated_at']).execute();

  await db.schema
    .createTable('feedback')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('restaurant_id', 'text', (c) => c.notNull())
    .addColumn('rating', 'integer', (c) => c.notNull())
    .addColumn('comment', 'text')
    .addColumn('order_id', 'text')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('updated', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('feedback_list').on('feedback').columns(['restaurant_id', 'created', 'id']).execute();

  await db.schema
    .createTable('guest_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('restaurant_id', 'text')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('reply_to', 'text')
    .addColumn('subject', 'text')
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('lang', 'text', (c) => c.notNull())
    .addColumn('waitlist_entry_id', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('sent_at', 'bigint')
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('updated', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('guest_messages_due').on('guest_messages').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('guest_messages_restaurant').on('guest_messages').columns(['restaurant_id', 'created', 'id']).execute();

  await db.schema
    .createTable('captcha_challenges')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('created', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('captcha_challenges_expiry').on('captcha_challenges').column('expires_at').execute();
}

export async function down(): Promise<void> {
  throw new Error('comanda migrations only go forward');
}
