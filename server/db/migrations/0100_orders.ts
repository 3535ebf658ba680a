import type { Kysely } from 'kysely';

// Portable across SQLite and PostgreSQL: booleans 0/1, times integer Unix seconds.
export async function up(db: Kysely<any>): Promise<void> {
  // Local bookkeeping (never replicated): each node hands out its own daily order numbers,
  // which is why a number carries the node's tag when the node is not the hub.
  await db.schema
    .createTable('order_counters')
    .addColumn('restaurant_id', 'text', (c) => c.notNull())
    .addColumn('business_date', 'text', (c) => c.notNull())
    .addColumn('node_tag', 'text', (c) => c.notNull())
    .addColumn('last', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('order_counters_pk', ['restaurant_id', 'business_date', 'node_tag'])
    .execute();

  await db.schema
    .createTable('qr_codes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('restaurant_id', 'text', (c) => c.notNull())
    .addColumn('token', 'text', (c) => c.notNull().unique())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('table_id', 'text')
    .addColumn('label', 'text')
    .addColumn('is_active', 'integer', (c) => c.notNull())
    .addColumn('disabled_at', 'bigint')
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('updated', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('qr_codes_list').on('qr_codes').columns(['restaurant_id', 'created', 'id']).execute();

  await db.schema
    .createTable('deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('restaurant_id', 'text', (c) => c.notNull())
    .addColumn('order_id', 'text', (c) => c.notNull().unique())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('external_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('courier_id', 'text')
    .addColumn('courier_name', 'text')
    .addColumn('dispatched_at', 'bigint')
    .addColumn('picked_up_at', 'bigint')
    .addColumn('delivered_at', 'bigint')
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('updated', 'bigint', (c) => c.notNull())
    .execute();

  // Lists filtered by status, newest first (`/v1/orders?status=placed`, the live screens):
  // straight from the index even when years of completed orders surround the few open ones.
  await db.schema.createIndex('orders_status_list').on('orders').columns(['restaurant_id', 'status', 'created', 'id']).execute();
}

export async function down(): Promise<void> {
  throw new Error('comanda migrations only go forward');
}
