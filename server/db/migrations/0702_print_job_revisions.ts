import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Print jobs are local bookkeeping, outside the change log, and change on every claim and
 * retry. `rev` counts the changes of one job: the database bumps it on every UPDATE of the
 * row (a trigger, so no writer can forget), so `(id, rev)` names one state of a job and the
 * job list can keep each job's presented JSON until its row changes (api/printers/job-json.ts).
 * The list's index now carries the mode too. Not `rev`: every claim and retry would then
 * rewrite an index entry as well (and on PostgreSQL no job update could stay heap-only).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('print_jobs').addColumn('rev', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`create function print_jobs_bump_rev() returns trigger language plpgsql as $$
      begin new.rev := old.rev + 1; return new; end $$`.execute(db);
    await sql`create trigger print_jobs_rev before update on print_jobs for each row execute function print_jobs_bump_rev()`.execute(db);
  } else {
    // SQLite cannot change NEW in a BEFORE trigger; this runs once per row (recursive
    // triggers are off, so its own UPDATE does not fire it again) and is not counted as a
    // change of the statement that fired it.
    await sql`create trigger print_jobs_rev after update on print_jobs for each row
      begin update print_jobs set rev = old.rev + 1 where rowid = new.rowid; end`.execute(db);
  }
  await db.schema.createIndex('print_jobs_page').on('print_jobs').columns(['restaurant_id', 'livemode', 'created', 'id']).execute();
  await db.schema.dropIndex('print_jobs_list').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('print_jobs_list').on('print_jobs').columns(['restaurant_id', 'created', 'id']).execute();
  await db.schema.dropIndex('print_jobs_page').execute();
  await sql`drop trigger print_jobs_rev${db.getExecutor().adapter instanceof PostgresAdapter ? sql` on print_jobs` : sql``}`.execute(db);
  if (db.getExecutor().adapter instanceof PostgresAdapter) await sql`drop function print_jobs_bump_rev()`.execute(db);
  await db.schema.alterTable('print_jobs').dropColumn('rev').execute();
}
