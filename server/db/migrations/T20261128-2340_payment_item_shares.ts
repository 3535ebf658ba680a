import type { Kysely } from 'kysely';

/**
 * A payment can pay a share of a line (a bottle split between three guests): `item_shares`, JSON
 * [{item, parts, part, amount}], the lines it paid one of `parts` equal shares of, which share and
 * what it was. null on every payment that paid no share (all payments made before this).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('payments').addColumn('item_shares', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('payments').dropColumn('item_shares').execute();
}
