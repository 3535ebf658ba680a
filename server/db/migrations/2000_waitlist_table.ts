import type { Kysely } from 'kysely';

/**
 * A party seated from the waitlist may be seated at a table: the entry names the table and the
 * sitting (a reservation made at that moment) that holds it, so the floor and the day book
 * show the table taken. Both null for a party seated without a table, and for older entries.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('waitlist_entries').addColumn('table_id', 'text').execute();
  await db.schema.alterTable('waitlist_entries').addColumn('reservation_id', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('waitlist_entries').dropColumn('reservation_id').execute();
  await db.schema.alterTable('waitlist_entries').dropColumn('table_id').execute();
}
