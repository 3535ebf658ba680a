import type { Kysely } from 'kysely';

/** Versions of a few tables of a restaurant (db/versions.ts) walk this index from its end. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('change_log_table').on('change_log').columns(['restaurant_id', 'table_name', 'seq']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('change_log_table').execute();
}
