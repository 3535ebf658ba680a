import type { Kysely } from 'kysely';

/**
 * A restaurant keeps the slugs it had (JSON list, newest last): a guest page printed on a
 * poster or a QR sheet under an old slug still finds the venue after a rename.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('restaurants').addColumn('former_slugs', 'text', (c) => c.notNull().defaultTo('[]')).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('restaurants').dropColumn('former_slugs').execute();
}
