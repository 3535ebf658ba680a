import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * The hub's version of each restaurant's print jobs: a counter the database moves on every
 * insert, update or delete of one of its jobs (triggers, so no writer can forget), read
 * before a page of the job list so the page can be kept until a job changes, whichever
 * process wrote it (api/printers/job-json.ts).
 *
 * SQLite only. It has one writer at a time, so a counter row costs nothing; on PostgreSQL
 * every job write of a restaurant would wait on that row's lock until its transaction ends
 * (the dispatcher behind every open order that enqueued a ticket), so there the list keeps
 * each job's JSON per revision of its row instead (migration 0702).
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await db.schema
    .createTable('print_job_versions')
    .addColumn('restaurant_id', 'text', (c) => c.primaryKey())
    .addColumn('n', 'integer', (c) => c.notNull())
    .execute();
  for (const [op, row] of [['insert', 'new'], ['update', 'new'], ['delete', 'old']] as const) {
    await sql`create trigger ${sql.raw(`print_job_versions_${op}`)} after ${sql.raw(op)} on print_jobs for each row begin
      insert into print_job_versions (restaurant_id, n) values (${sql.raw(row)}.restaurant_id, 1)
      on conflict (restaurant_id) do update set n = n + 1; end`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  for (const op of ['insert', 'update', 'delete']) await sql`drop trigger ${sql.raw(`print_job_versions_${op}`)}`.execute(db);
  await db.schema.dropTable('print_job_versions').execute();
}
