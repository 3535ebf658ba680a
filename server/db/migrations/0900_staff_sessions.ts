import type { Kysely } from 'kysely';

/**
 * The back office (app/web): staff sign in with email and password and get a session. A
 * session is local to the node that issued it (like an Idempotency-Key answer), so it stays
 * out of the change log; a staff member's own language is part of the replicated user.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('language', 'text').execute();
  await db.schema
    .createTable('staff_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('restaurant_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    // sha256 of the cookie's token: a copy of the table signs nobody in
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    // what a state-changing request must echo in X-CSRF-Token
    .addColumn('csrf_token', 'text', (c) => c.notNull())
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    // idle expiry, moved forward as the session is used; never past max_expires_at
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('max_expires_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('staff_sessions_user').on('staff_sessions').columns(['user_id']).execute();
  await db.schema.createIndex('staff_sessions_restaurant').on('staff_sessions').columns(['restaurant_id', 'created']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('staff_sessions').execute();
  await db.schema.alterTable('users').dropColumn('language').execute();
}
