import type { Kysely } from 'kysely';

/**
 * Service at the table: prices that include tax, held courses, voids, discounts and comps,
 * staff PINs and the drawn floor plan.
 * - orders.prices_include_tax: the restaurant's setting when the order was made, so a later
 *   change of the setting never re-prices an open check (and every node sums it the same way);
 * - orders.check_discount_amount: the check-level part of discount_amount (the rest is the sum
 *   of the lines' own discounts);
 * - order_items.held: a course kept back from the stations until it is fired;
 * - users.pin_hash: a short PIN for quick sign-in on a shared tablet (hashed like a password);
 * - tables.plan_*: where the table is drawn on its zone's plan.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const orders = [
    ['prices_include_tax', 'integer', 0],
    ['check_discount_amount', 'bigint', 0],
  ] as const;
  for (const [name, type, dflt] of orders) await db.schema.alterTable('orders').addColumn(name, type, (c) => c.notNull().defaultTo(dflt)).execute();
  for (const name of ['discount_reason', 'discount_approved_by']) await db.schema.alterTable('orders').addColumn(name, 'text').execute();

  await db.schema.alterTable('order_items').addColumn('held', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('order_items').addColumn('discount_amount', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('order_items').addColumn('voided_at', 'bigint').execute();
  for (const name of ['void_reason', 'voided_by', 'discount_reason', 'discount_approved_by']) {
    await db.schema.alterTable('order_items').addColumn(name, 'text').execute();
  }

  await db.schema.alterTable('users').addColumn('pin_hash', 'text').execute();

  for (const name of ['plan_x', 'plan_y', 'plan_width', 'plan_height']) await db.schema.alterTable('tables').addColumn(name, 'integer').execute();
  await db.schema.alterTable('tables').addColumn('shape', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const name of ['plan_x', 'plan_y', 'plan_width', 'plan_height', 'shape']) await db.schema.alterTable('tables').dropColumn(name).execute();
  await db.schema.alterTable('users').dropColumn('pin_hash').execute();
  for (const name of ['held', 'discount_amount', 'voided_at', 'void_reason', 'voided_by', 'discount_reason', 'discount_approved_by']) {
    await db.schema.alterTable('order_items').dropColumn(name).execute();
  }
  for (const name of ['prices_include_tax', 'check_discount_amount', 'discount_reason', 'discount_approved_by']) {
    await db.schema.alterTable('orders').dropColumn(name).execute();
  }
}
