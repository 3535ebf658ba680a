import { sql, type Kysely } from 'kysely';

/**
 * Money that ties out (the returns, the currency each amount was taken in, who approved a
 * cancel):
 * - a refund given on a completed check is a return (`is_return`): the check stays closed,
 *   owing nothing, and the day's net sales go down by it; the check keeps the sum in
 *   `amount_returned`, made again from its refunds like `amount_paid`;
 * - every payment and refund names its currency, so a later change of the restaurant's
 *   currency (refused once money exists) could never relabel it;
 * - a check cancelled with lines already at the stations names the manager who approved it;
 * - a tip above the venue's bound, or corrected later, names the manager who approved it;
 * - the drawer's records say what they are: a count, the opening float, cash paid in or out.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').addColumn('amount_returned', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('orders').addColumn('cancel_approved_by', 'text').execute();
  await db.schema.alterTable('payment_refunds').addColumn('is_return', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('payments').addColumn('currency', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('payment_refunds').addColumn('currency', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('payments').addColumn('tip_approved_by', 'text').execute();
  await db.schema.alterTable('cash_counts').addColumn('kind', 'text', (c) => c.notNull().defaultTo('count')).execute();
  for (const table of ['payments', 'payment_refunds']) {
    await sql`update ${sql.table(table)} set currency = (select o.currency from orders o where o.id = ${sql.ref(`${table}.order_id`)}) where currency = ''`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('cash_counts').dropColumn('kind').execute();
  await db.schema.alterTable('payments').dropColumn('tip_approved_by').execute();
  await db.schema.alterTable('payment_refunds').dropColumn('currency').execute();
  await db.schema.alterTable('payments').dropColumn('currency').execute();
  await db.schema.alterTable('payment_refunds').dropColumn('is_return').execute();
  await db.schema.alterTable('orders').dropColumn('cancel_approved_by').execute();
  await db.schema.alterTable('orders').dropColumn('amount_returned').execute();
}
