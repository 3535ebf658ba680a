import type { Kysely } from 'kysely';

/**
 * Payments, refunds and cash counts (issue 25). comanda records payments, it does not move
 * money: a card is charged on the venue's own terminal and recorded here. All three are
 * replicated append-only records (a payment is never edited; a refund is a record of its
 * own), so a payment taken on the hub and one taken on the cloud for the same order are
 * both kept. The order keeps `amount_paid` (payments less refunds, tips aside), made again
 * from the records whenever sync brings one, so both nodes agree on it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('payments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('restaurant_id', 'text', (c) => c.notNull())
    .addColumn('order_id', 'text', (c) => c.notNull())
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    // who charged it: 'recorded' (the venue's own terminal or till) until a terminal plugs in
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('tip_amount', 'bigint', (c) => c.notNull())
    .addColumn('tendered_amount', 'bigint')
    .addColumn('change_amount', 'bigint')
    // JSON string[] of order line ids this payment paid, or null for an amount
    .addColumn('items', 'text')
    .addColumn('reference', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    // the staff member who took it (usr_…), else the order's server; tips are counted for them
    .addColumn('server_id', 'text')
    // the restaurant's day it was taken on (its own timezone): the day close sums by it
    .addColumn('business_date', 'text', (c) => c.notNull())
    .addColumn('created', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('payments_order').on('payments').columns(['order_id']).execute();
  await db.schema.createIndex('payments_restaurant_day').on('payments').columns(['restaurant_id', 'business_date']).execute();
  await db.schema.createIndex('payments_restaurant_created').on('payments').columns(['restaurant_id', 'created', 'id']).execute();

  await db.schema
    .createTable('payment_refunds')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('restaurant_id', 'text', (c) => c.notNull())
    .addColumn('payment_id', 'text', (c) => c.notNull())
    .addColumn('order_id', 'text', (c) => c.notNull())
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('refunded_by', 'text')
    .addColumn('business_date', 'text', (c) => c.notNull())
    .addColumn('created', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('payment_refunds_payment').on('payment_refunds').columns(['payment_id']).execute();
  await db.schema.createIndex('payment_refunds_order').on('payment_refunds').columns(['order_id']).execute();
  await db.schema.createIndex('payment_refunds_restaurant_day').on('payment_refunds').columns(['restaurant_id', 'business_date']).execute();

  await db.schema
    .createTable('cash_counts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('restaurant_id', 'text', (c) => c.notNull())
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('business_date', 'text', (c) => c.notNull())
    .addColumn('counted_amount', 'bigint', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('counted_by', 'text')
    .addColumn('created', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('cash_counts_restaurant_day').on('cash_counts').columns(['restaurant_id', 'business_date']).execute();

  // payments less refunds, tips aside; amount_due and payment_status follow from it and the total
  await db.schema.alterTable('orders').addColumn('amount_paid', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  // a receipt printer with a cash drawer on its kick-out port: cash payments open it
  await db.schema.alterTable('printers').addColumn('cash_drawer', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('printers').dropColumn('cash_drawer').execute();
  await db.schema.alterTable('orders').dropColumn('amount_paid').execute();
  await db.schema.dropTable('cash_counts').execute();
  await db.schema.dropTable('payment_refunds').execute();
  await db.schema.dropTable('payments').execute();
}
