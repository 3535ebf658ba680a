import type { Kysely } from 'kysely';

/**
 * The party's size on a check (`covers`): asked when a server opens a table, so the tablet
 * offers that many seats and a report can count covers; null when nobody said (an API order,
 * a guest's QR order, checks made before this).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').addColumn('covers', 'integer').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').dropColumn('covers').execute();
}
