import type { Kysely } from 'kysely';
import { record, stamps } from './columns.ts';

/**
 * The orders' tables as migration 0001_foundation made them, in the place of their own; what
 * later migrations add is in theirs (0100_orders, 1600_order_seat_course, …). History: never
 * edit, or a fresh database would differ from one made before the change.
 */
export async function createOrderTables(db: Kysely<any>): Promise<void> {
  await stamps(
    record(db.schema.createTable('orders'))
      .addColumn('order_number', 'text', (c: any) => c.notNull())
      .addColumn('business_date', 'text', (c: any) => c.notNull())
      .addColumn('type', 'text', (c: any) => c.notNull())
      .addColumn('status', 'text', (c: any) => c.notNull())
      .addColumn('source', 'text', (c: any) => c.notNull())
      .addColumn('table_id', 'text')
      .addColumn('server_id', 'text')
      .addColumn('customer_id', 'text')
      .addColumn('customer_name', 'text')
      .addColumn('customer_phone', 'text')
      .addColumn('customer_email', 'text')
      .addColumn('delivery_address', 'text')
      .addColumn('estimated_time_minutes', 'integer')
      .addColumn('subtotal', 'bigint', (c: any) => c.notNull())
      .addColumn('tax_amount', 'bigint', (c: any) => c.notNull())
      .addColumn('discount_amount', 'bigint', (c: any) => c.notNull())
      .addColumn('tip_amount', 'bigint', (c: any) => c.notNull())
      .addColumn('delivery_fee', 'bigint', (c: any) => c.notNull())
      .addColumn('total', 'bigint', (c: any) => c.notNull())
      .addColumn('currency', 'text', (c: any) => c.notNull())
      .addColumn('notes', 'text')
      .addColumn('placed_at', 'bigint')
      .addColumn('completed_at', 'bigint')
      .addColumn('cancelled_at', 'bigint')
      .addColumn('cancel_reason', 'text')
      .addColumn('is_self_service', 'integer', (c: any) => c.notNull())
      .addColumn('is_virtual_table', 'integer', (c: any) => c.notNull())
      .addColumn('virtual_table_label', 'text')
      .addColumn('qr_code_id', 'text')
      .addColumn('livemode', 'integer', (c: any) => c.notNull())
      .addUniqueConstraint('orders_number', ['restaurant_id', 'business_date', 'order_number']),
  ).execute();
  await db.schema.createIndex('orders_list').on('orders').columns(['restaurant_id', 'created', 'id']).execute();
  await db.schema.createIndex('orders_status').on('orders').columns(['restaurant_id', 'status']).execute();

  await stamps(
    record(db.schema.createTable('order_items'))
      .addColumn('order_id', 'text', (c: any) => c.notNull())
      .addColumn('idx', 'integer', (c: any) => c.notNull())
      .addColumn('menu_item_id', 'text', (c: any) => c.notNull())
      .addColumn('name', 'text', (c: any) => c.notNull())
      .addColumn('quantity', 'integer', (c: any) => c.notNull())
      .addColumn('unit_price', 'bigint', (c: any) => c.notNull())
      .addColumn('modifiers', 'text', (c: any) => c.notNull())
      .addColumn('line_subtotal', 'bigint', (c: any) => c.notNull())
      .addColumn('tax_rate', 'real', (c: any) => c.notNull())
      .addColumn('tax_amount', 'bigint', (c: any) => c.notNull())
      .addColumn('notes', 'text')
      .addColumn('status', 'text', (c: any) => c.notNull())
      .addColumn('station', 'text', (c: any) => c.notNull())
      .addColumn('round', 'integer', (c: any) => c.notNull())
      .addColumn('sent_to_kitchen_at', 'bigint')
      .addColumn('ready_at', 'bigint')
      .addUniqueConstraint('order_items_idx', ['order_id', 'idx']),
  ).execute();
}
