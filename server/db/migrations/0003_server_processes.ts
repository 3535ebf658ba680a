import type { Kysely } from 'kysely';

// Each running server has a row; an Idempotency-Key claim names the process that holds it, so
// a claim of a process that died (kill -9, power cut) can be freed at once instead of waiting
// out the abandonment window. See db/processes.ts.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('server_processes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('pid', 'integer', (c) => c.notNull())
    // PostgreSQL: the second key of the session advisory lock the process holds while alive
    .addColumn('lock_key', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('idempotency_keys').addColumn('owner', 'text').execute();
}

export async function down(): Promise<void> {
  throw new Error('comanda migrations only go forward');
}
