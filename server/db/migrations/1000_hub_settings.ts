import type { Kysely } from 'kysely';

/** Installation settings edited from the dashboard (mail and SMS transports), secrets sealed. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('hub_settings')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('hub_settings').execute();
}
