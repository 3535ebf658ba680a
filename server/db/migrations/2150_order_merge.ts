import type { Kysely } from 'kysely';

/**
 * Merging two checks: the order whose lines, seats and payments went to another is closed
 * (cancelled, with its reason) and names the order that took them in `merged_into`, so a report,
 * the receipt history and an integrator can follow the money.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').addColumn('merged_into', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').dropColumn('merged_into').execute();
}
