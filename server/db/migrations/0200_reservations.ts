import type { Kysely } from 'kysely';

// Portable across SQLite and PostgreSQL: times are integer Unix seconds (bigint), JSON is text.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('reservations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('restaurant_id', 'text', (c) => c.notNull())
    .addColumn('guest_name', 'text', (c) => c.notNull())
    .addColumn('guest_email', 'text')
    .addColumn('guest_phone', 'text')
    .addColumn('customer_id', 'text')
    .addColumn('party_size', 'integer', (c) => c.notNull())
    // the wall-clock date and time the guest booked, in the restaurant's timezone
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('time', 'text', (c) => c.notNull())
    // the same moment as an instant, and its end; overlap checks use these
    .addColumn('starts_at', 'bigint', (c) => c.notNull())
    .addColumn('ends_at', 'bigint', (c) => c.notNull())
    .addColumn('duration_minutes', 'integer', (c) => c.notNull())
    .addColumn('table_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('arrived_at', 'bigint')
    .addColumn('seated_at', 'bigint')
    .addColumn('completed_at', 'bigint')
    .addColumn('cancelled_at', 'bigint')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('notes', 'text')
    .addColumn('special_requests', 'text')
    .addColumn('tags', 'text', (c) => c.notNull())
    .addColumn('no_show_risk', 'integer', (c) => c.notNull())
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('updated', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('reservations_list').on('reservations').columns(['restaurant_id', 'created', 'id']).execute();
  await db.schema.createIndex('reservations_starts').on('reservations').columns(['restaurant_id', 'starts_at']).execute();
  await db.schema.createIndex('reservations_date').on('reservations').columns(['restaurant_id', 'date']).execute();
  // the no-show job looks across restaurants for open reservations past their time
  await db.schema.createIndex('reservations_due').on('reservations').columns(['status', 'starts_at']).execute();
  await db.schema.createIndex('reservations_customer').on('reservations').columns(['restaurant_id', 'customer_id']).execute();
}

export async function down(): Promise<void> {
  throw new Error('comanda migrations only go forward');
}
