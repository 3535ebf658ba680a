import type { Kysely } from 'kysely';

// Two kinds of tables. Records (shifts, inventory_items) are replicated like every other
// record. The analytics_* tables are local roll-ups derived from orders, kept in step by the
// order hook in the same transaction; they can always be rebuilt from orders.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('shifts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('restaurant_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('clock_in', 'bigint', (c) => c.notNull())
    .addColumn('clock_out', 'bigint')
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('updated', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('shifts_list').on('shifts').columns(['restaurant_id', 'created', 'id']).execute();
  await db.schema.createIndex('shifts_clock_in').on('shifts').columns(['restaurant_id', 'clock_in']).execute();
  await db.schema.createIndex('shifts_user').on('shifts').columns(['restaurant_id', 'user_id', 'clock_out']).execute();

  await db.schema
    .createTable('inventory_items')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('restaurant_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('sku', 'text')
    .addColumn('unit', 'text', (c) => c.notNull())
    // quantities are stored in thousandths of the unit so sums stay exact integers
    .addColumn('quantity_milli', 'bigint', (c) => c.notNull())
    .addColumn('unit_cost', 'bigint', (c) => c.notNull())
    .addColumn('reorder_level_milli', 'bigint', (c) => c.notNull())
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('updated', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('inventory_items_list').on('inventory_items').columns(['restaurant_id', 'created', 'id']).execute();

  await db.schema.createIndex('customers_list').on('customers').columns(['restaurant_id', 'created', 'id']).execute();
  await db.schema.createIndex('customers_first_seen').on('customers').columns(['restaurant_id', 'first_seen']).execute();
  await db.schema.createIndex('users_list').on('users').columns(['restaurant_id', 'created', 'id']).execute();

  // One row per counted order: what it added to the roll-ups, so a later change can take
  // exactly that back out before adding the new state.
  await db.schema
    .createTable('analytics_order_facts')
    .addColumn('order_id', 'text', (c) => c.primaryKey())
    .addColumn('restaurant_id', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('hour', 'integer', (c) => c.notNull())
    .addColumn('weekday', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('revenue', 'bigint', (c) => c.notNull())
    .addColumn('customer_id', 'text')
    .addColumn('items', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('analytics_daily')
    .addColumn('restaurant_id', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('hour', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('weekday', 'integer', (c) => c.notNull())
    .addColumn('orders', 'bigint', (c) => c.notNull())
    .addColumn('revenue', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('analytics_daily_pk', ['restaurant_id', 'day', 'hour', 'type'])
    .execute();

  await db.schema
    .createTable('analytics_item_daily')
    .addColumn('restaurant_id', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('menu_item_id', 'text', (c) => c.notNull())
    .addColumn('quantity', 'bigint', (c) => c.notNull())
    .addColumn('revenue', 'bigint', (c) => c.notNull())
    .addColumn('orders', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('analytics_item_daily_pk', ['restaurant_id', 'day', 'menu_item_id'])
    .execute();

  await db.schema
    .createTable('analytics_customer_totals')
    .addColumn('customer_id', 'text', (c) => c.primaryKey())
    .addColumn('restaurant_id', 'text', (c) => c.notNull())
    .addColumn('visits', 'bigint', (c) => c.notNull())
    .addColumn('total_spent', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('analytics_customer_totals_top')
    .on('analytics_customer_totals')
    .columns(['restaurant_id', 'total_spent', 'customer_id'])
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('comanda migrations only go forward');
}
