import { type Kysely, sql } from 'kysely';
import { record, stamps } from './0001/columns.ts';
import { createOrderTables } from './0001/orders.ts';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('node_state')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('change_log')
    .addColumn('seq', 'bigint', (c) => c.primaryKey())
    .addColumn('op_id', 'text', (c) => c.notNull().unique())
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('origin_seq', 'bigint', (c) => c.notNull())
    .addColumn('restaurant_id', 'text')
    .addColumn('table_name', 'text', (c) => c.notNull())
    .addColumn('row_id', 'text', (c) => c.notNull())
    .addColumn('op', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('change_log_origin_seq', ['origin', 'origin_seq'])
    .execute();
  await db.schema.createIndex('change_log_restaurant').on('change_log').columns(['restaurant_id', 'seq']).execute();

  await stamps(
    db.schema
      .createTable('restaurants')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('slug', 'text', (c) => c.notNull().unique())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('plan', 'text', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('timezone', 'text', (c) => c.notNull())
      .addColumn('default_tax_rate', 'real', (c) => c.notNull())
      .addColumn('settings', 'text', (c) => c.notNull())
      .addColumn('guest_secret', 'text', (c) => c.notNull()),
  ).execute();

  await stamps(
    record(db.schema.createTable('api_keys'))
      .addColumn('kind', 'text', (c: any) => c.notNull())
      .addColumn('livemode', 'integer', (c: any) => c.notNull())
      .addColumn('hash', 'text', (c: any) => c.notNull().unique())
      .addColumn('prefix', 'text', (c: any) => c.notNull())
      .addColumn('name', 'text')
      .addColumn('scopes', 'text', (c: any) => c.notNull())
      .addColumn('last_used_at', 'bigint')
      .addColumn('revoked_at', 'bigint'),
  ).execute();

  await stamps(
    record(db.schema.createTable('users'))
      .addColumn('email', 'text', (c: any) => c.notNull())
      .addColumn('name', 'text', (c: any) => c.notNull())
      .addColumn('role', 'text', (c: any) => c.notNull())
      .addColumn('password_hash', 'text')
      .addColumn('hourly_rate', 'integer')
      .addColumn('is_active', 'integer', (c: any) => c.notNull())
      .addUniqueConstraint('users_email', ['restaurant_id', 'email']),
  ).execute();

  await stamps(
    record(db.schema.createTable('stations'))
      .addColumn('key', 'text', (c: any) => c.notNull())
      .addColumn('name', 'text', (c: any) => c.notNull())
      .addColumn('is_active', 'integer', (c: any) => c.notNull())
      .addUniqueConstraint('stations_key', ['restaurant_id', 'key']),
  ).execute();

  await stamps(
    record(db.schema.createTable('menu_categories'))
      .addColumn('name', 'text', (c: any) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('parent_category_id', 'text')
      .addColumn('sort_order', 'integer', (c: any) => c.notNull())
      .addColumn('is_active', 'integer', (c: any) => c.notNull())
      .addColumn('station', 'text', (c: any) => c.notNull())
      .addColumn('image_url', 'text')
      .addColumn('available_from', 'text')
      .addColumn('available_until', 'text')
      .addColumn('available_days', 'text', (c: any) => c.notNull())
      .addColumn('translations', 'text', (c: any) => c.notNull()),
  ).execute();
  await db.schema
    .createIndex('menu_categories_list')
    .on('menu_categories')
    .columns(['restaurant_id', 'sort_order', 'created', 'id'])
    .execute();

  await stamps(
    record(db.schema.createTable('menu_items'))
      .addColumn('category_id', 'text', (c: any) => c.notNull())
      .addColumn('name', 'text', (c: any) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('price', 'integer', (c: any) => c.notNull())
      .addColumn('cost', 'integer')
      .addColumn('sku', 'text')
      .addColumn('image_url', 'text')
      .addColumn('is_active', 'integer', (c: any) => c.notNull())
      .addColumn('is_available', 'integer', (c: any) => c.notNull())
      .addColumn('preparation_time_minutes', 'integer')
      .addColumn('nutrition', 'text')
      .addColumn('allergens', 'text', (c: any) => c.notNull())
      .addColumn('tags', 'text', (c: any) => c.notNull())
      .addColumn('modifier_group_ids', 'text', (c: any) => c.notNull())
      .addColumn('sort_order', 'integer', (c: any) => c.notNull())
      .addColumn('tax_rate', 'real')
      .addColumn('translations', 'text', (c: any) => c.notNull()),
  ).execute();
  await db.schema.createIndex('menu_items_list').on('menu_items').columns(['restaurant_id', 'created', 'id']).execute();
  await db.schema.createIndex('menu_items_category').on('menu_items').columns(['restaurant_id', 'category_id']).execute();

  await stamps(
    record(db.schema.createTable('modifier_groups'))
      .addColumn('name', 'text', (c: any) => c.notNull())
      .addColumn('required', 'integer', (c: any) => c.notNull())
      .addColumn('min_selections', 'integer', (c: any) => c.notNull())
      .addColumn('max_selections', 'integer', (c: any) => c.notNull())
      .addColumn('modifiers', 'text', (c: any) => c.notNull()),
  ).execute();

  await stamps(
    record(db.schema.createTable('tables'))
      .addColumn('number', 'integer', (c: any) => c.notNull())
      .addColumn('capacity', 'integer', (c: any) => c.notNull())
      .addColumn('min_capacity', 'integer')
      .addColumn('zone', 'text')
      .addColumn('status', 'text', (c: any) => c.notNull())
      .addColumn('is_active', 'integer', (c: any) => c.notNull())
      .addUniqueConstraint('tables_number', ['restaurant_id', 'number']),
  ).execute();

  await stamps(
    record(db.schema.createTable('customers'))
      .addColumn('name', 'text')
      .addColumn('email', 'text')
      .addColumn('phone', 'text')
      .addColumn('loyalty_points', 'integer', (c: any) => c.notNull())
      .addColumn('first_seen', 'bigint', (c: any) => c.notNull()),
  ).execute();
  await db.schema.createIndex('customers_email').on('customers').columns(['restaurant_id', 'email']).execute();
  await db.schema.createIndex('customers_phone').on('customers').columns(['restaurant_id', 'phone']).execute();

  await createOrderTables(db);

  await stamps(
    record(db.schema.createTable('events'))
      .addColumn('type', 'text', (c: any) => c.notNull())
      .addColumn('livemode', 'integer', (c: any) => c.notNull())
      .addColumn('data', 'text', (c: any) => c.notNull())
      .addColumn('status', 'text', (c: any) => c.notNull()),
  ).execute();
  await db.schema.createIndex('events_list').on('events').columns(['restaurant_id', 'created', 'id']).execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('restaurant_id', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('locked_at', 'bigint', (c) => c.notNull())
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['restaurant_id', 'key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_created').on('idempotency_keys').column('created').execute();
  void sql;
}

export async function down(): Promise<void> {
  throw new Error('comanda migrations only go forward');
}
