import type { Kysely } from 'kysely';

/**
 * Failed sign-ins, PINs and pairing codes, counted where every process of a cloud sees them
 * (auth/failure-log.ts); local to the node, never synced, swept after a day.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('auth_failures')
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('auth_failures_key_at').on('auth_failures').columns(['key', 'at']).execute();
  await db.schema.createIndex('auth_failures_at').on('auth_failures').column('at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('auth_failures').execute();
}
