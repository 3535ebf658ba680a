import type { Kysely } from 'kysely';

/**
 * - A menu item may name its own station (null: its category's), so the fries of a burger
 *   category go to the fryer while the burgers go to the grill.
 * - Stations have a position: the kitchen's order of them (grill before pass), which the
 *   screens and the printed tickets follow. Equal positions fall back to the oldest first.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('menu_items').addColumn('station', 'text').execute();
  await db.schema.alterTable('stations').addColumn('position', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('stations').dropColumn('position').execute();
  await db.schema.alterTable('menu_items').dropColumn('station').execute();
}
