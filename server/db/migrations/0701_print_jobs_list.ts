import type { Kysely } from 'kysely';

/**
 * The job list reads newest first with the id breaking ties: with the id in the index the
 * page comes straight off it, without sorting every job of the restaurant first.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('print_jobs_list').on('print_jobs').columns(['restaurant_id', 'created', 'id']).execute();
  await db.schema.dropIndex('print_jobs_restaurant').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('print_jobs_restaurant').on('print_jobs').columns(['restaurant_id', 'created']).execute();
  await db.schema.dropIndex('print_jobs_list').execute();
}
