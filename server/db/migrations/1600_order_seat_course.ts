import type { Kysely } from 'kysely';

/**
 * Order lines carry the seat they are for (paying a seat pays its lines) and the course they
 * belong to (starters before mains); both optional, whole numbers from 1.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('order_items').addColumn('seat', 'integer').execute();
  await db.schema.alterTable('order_items').addColumn('course', 'integer').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('order_items').dropColumn('course').execute();
  await db.schema.alterTable('order_items').dropColumn('seat').execute();
}
