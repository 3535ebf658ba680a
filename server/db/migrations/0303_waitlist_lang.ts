import type { Kysely } from 'kysely';

// The language a party joined in, so the "table ready" notice speaks it. Entries made before
// this knew none: English, as their notices were.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('waitlist_entries').addColumn('lang', 'text', (c) => c.notNull().defaultTo('en')).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('waitlist_entries').dropColumn('lang').execute();
}
