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
const bump = (row: 'new' | 'old') =>
  sql`insert into print_job_versions (restaurant_id, n) values (${sql.raw(row)}.restaurant_id, 1) on conflict (restaurant_id) do update set n = n + 1`;

export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await db.schema
    .createTable('print_job_versions')
    .addColumn('restaurant_id', 'text', (c) => c.primaryKey())
    .addColumn('n', 'integer', (c) => c.notNull())
    .execute();
  await sql`create trigger print_job_versions_insert after insert on print_jobs for each row begin ${bump('new')}; end`.execute(db);
  await sql`create trigger print_job_versions_delete after delete on print_jobs for each row begin ${bump('old')}; end`.execute(db);
  // Updates: the revision trigger of 0702 bumps the counter too. A second AFTER UPDATE trigger
  // would fire twice per update (once more for the revision's own UPDATE, since recursive
  // triggers being off only keeps a trigger from firing itself).
  await sql`drop trigger print_jobs_rev`.execute(db);
  await sql`create trigger print_jobs_rev after update on print_jobs for each row begin
    update print_jobs set rev = old.rev + 1 where rowid = new.rowid;
    ${bump('new')};
    end`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await sql`drop trigger print_jobs_rev`.execute(db);
  await sql`create trigger print_jobs_rev after update on print_jobs for each row
    begin update print_jobs set rev = old.rev + 1 where rowid = new.rowid; end`.execute(db);
  for (const op of ['insert', 'delete']) await sql`drop trigger ${sql.raw(`print_job_versions_${op}`)}`.execute(db);
  await db.schema.dropTable('print_job_versions').execute();
}
