import type { Kysely } from 'kysely';

// Portable across SQLite and PostgreSQL: booleans 0/1, JSON as text, Unix seconds as bigint.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('printers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('restaurant_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('transport', 'text', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('paper_width', 'integer', (c) => c.notNull())
    .addColumn('stations', 'text', (c) => c.notNull())
    .addColumn('prints_receipts', 'integer', (c) => c.notNull())
    .addColumn('backup_printer_id', 'text')
    .addColumn('is_active', 'integer', (c) => c.notNull())
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('updated', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('printers_restaurant').on('printers').columns(['restaurant_id', 'created']).execute();

  await db.schema
    .createTable('print_jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('restaurant_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('printer_id', 'text', (c) => c.notNull())
    .addColumn('original_printer_id', 'text', (c) => c.notNull())
    .addColumn('order_id', 'text')
    .addColumn('station', 'text')
    .addColumn('round', 'integer')
    .addColumn('document', 'text', (c) => c.notNull())
    .addColumn('marks', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('last_error', 'text')
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'bigint')
    .addColumn('write_started_at', 'bigint')
    .addColumn('printed_at', 'bigint')
    .addColumn('reprint_of', 'text')
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('created', 'bigint', (c) => c.notNull())
    .addColumn('updated', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('print_jobs_restaurant').on('print_jobs').columns(['restaurant_id', 'created']).execute();
  // the dispatcher's scan: open jobs by state and due time
  await db.schema.createIndex('print_jobs_due').on('print_jobs').columns(['state', 'next_attempt_at']).execute();
  await db.schema.createIndex('print_jobs_order').on('print_jobs').columns(['order_id']).execute();

  await db.schema
    .createTable('printer_status')
    .addColumn('printer_id', 'text', (c) => c.primaryKey())
    .addColumn('restaurant_id', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('detail', 'text')
    .addColumn('checked_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('comanda migrations only go forward');
}
