import { type Kysely, sql, SqliteAdapter } from 'kysely';

/**
 * A person may have no email: a line cook or a server who only signs in by PIN on the service
 * tablet. The column becomes nullable; the (restaurant, email) unique constraint stays, and
 * NULLs never collide under it, so any number of people may be without one.
 *
 * SQLite cannot drop NOT NULL in place: the table is rebuilt from its own stored definition
 * with only that word removed, rows and indexes carried over, inside the migration.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) {
    await sql`alter table users alter column email drop not null`.execute(db);
    return;
  }
  await rebuildUsers(db, (ddl) => {
    const next = ddl.replace(/("email"\s+text)\s+not null/i, '$1');
    if (next === ddl) throw new Error('users.email: the NOT NULL to drop was not found in the table definition');
    return next;
  });
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) {
    await sql`alter table users alter column email set not null`.execute(db);
    return;
  }
  await rebuildUsers(db, (ddl) => ddl.replace(/("email"\s+text)(?!\s+not null)/i, '$1 not null'));
}

async function rebuildUsers(db: Kysely<any>, change: (ddl: string) => string): Promise<void> {
  const objects = (await sql<{ type: string; name: string; sql: string | null }>`select type, name, sql from sqlite_master where tbl_name = 'users'`.execute(db)).rows;
  const table = objects.find((o) => o.type === 'table');
  if (!table?.sql) throw new Error('users: no table definition');
  const ddl = change(table.sql).replace(/^create table\s+("?users"?)/i, 'create table "users_rebuilt"');
  await sql.raw(ddl).execute(db);
  await sql`insert into users_rebuilt select * from users`.execute(db);
  await sql`drop table users`.execute(db);
  await sql`alter table users_rebuilt rename to users`.execute(db);
  // indexes and triggers made by name (not the constraint's own automatic index) come back as they were
  for (const o of objects) if (o.type !== 'table' && o.sql) await sql.raw(o.sql).execute(db);
}
