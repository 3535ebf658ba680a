import type { Kysely } from 'kysely';

/**
 * Service tablets (issue 40): a tablet a manager trusted for staff PINs is a row, listed and
 * revocable in Settings → Screens, in place of a stateless signed cookie nobody could take
 * back. A session says how it was opened (`via`: a PIN opens service work only) and on which
 * tablet, so revoking the tablet ends the sessions opened on it. Local to the node, not synced.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('service_tablets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('restaurant_id', 'text', (c) => c.notNull())
    // sha256 of the cookie's token: a copy of the table trusts no tablet
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('trusted_by', 'text', (c) => c.notNull())
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('service_tablets_restaurant').on('service_tablets').columns(['restaurant_id', 'created']).execute();
  await db.schema.alterTable('staff_sessions').addColumn('via', 'text', (c) => c.notNull().defaultTo('password')).execute();
  await db.schema.alterTable('staff_sessions').addColumn('service_tablet_id', 'text').execute();
  await db.schema.createIndex('staff_sessions_tablet').on('staff_sessions').column('service_tablet_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('staff_sessions_tablet').execute();
  await db.schema.alterTable('staff_sessions').dropColumn('service_tablet_id').execute();
  await db.schema.alterTable('staff_sessions').dropColumn('via').execute();
  await db.schema.dropTable('service_tablets').execute();
}
