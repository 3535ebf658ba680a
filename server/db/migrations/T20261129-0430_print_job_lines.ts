import type { Kysely } from 'kysely';

/**
 * Which lines each kitchen ticket carries, and whether it takes them back (a VOID ticket): a hub
 * that learns by sync of a void made on the cloud prints a VOID ticket only for a line whose
 * ticket its own printer had (docs/contributors/two-homes.md), and only once. Jobs from before
 * name no lines: their voids print nothing late (none is pending across an upgrade in practice).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('print_jobs').addColumn('line_ids', 'text', (c) => c.notNull().defaultTo('[]')).execute();
  await db.schema.alterTable('print_jobs').addColumn('voids', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('print_jobs').dropColumn('voids').execute();
  await db.schema.alterTable('print_jobs').dropColumn('line_ids').execute();
}
