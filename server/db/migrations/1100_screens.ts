import type { Kysely } from 'kysely';

/**
 * Kitchen, expo and floor screens. A tablet is paired with a short code a manager makes in
 * Settings; the code is local to the node that made it (like a staff session) and is spent
 * once, leaving behind a widget key named for the device. Each station carries the ages at
 * which its tickets turn amber and red (null: the defaults, 8 and 15 minutes).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('device_pairings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('restaurant_id', 'text', (c) => c.notNull())
    // sha256 of the six digits: a copy of the table pairs nothing
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('station', 'text')
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    // the widget key the device got; revoking the device revokes it
    .addColumn('api_key_id', 'text')
    .execute();
  await db.schema.createIndex('device_pairings_code').on('device_pairings').columns(['code_hash', 'expires_at']).execute();
  await db.schema.createIndex('device_pairings_restaurant').on('device_pairings').columns(['restaurant_id', 'created']).execute();
  await db.schema.alterTable('stations').addColumn('warn_after_minutes', 'integer').execute();
  await db.schema.alterTable('stations').addColumn('late_after_minutes', 'integer').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('stations').dropColumn('late_after_minutes').execute();
  await db.schema.alterTable('stations').dropColumn('warn_after_minutes').execute();
  await db.schema.dropTable('device_pairings').execute();
}
