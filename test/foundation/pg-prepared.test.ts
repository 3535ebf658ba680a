import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import { DIALECTS, freshDatabase } from '../helpers/db.ts';

// PostgreSQL only: SQLite statements are prepared on the raw connection (statement-shapes.ts)
describe.runIf(DIALECTS.includes('postgres'))('PostgreSQL statements run prepared', () => {
  let database: Database | null = null;
  afterEach(async () => {
    await database?.close();
    database = null;
  });

  it('a parameterised statement is prepared once per connection and run by name again', async () => {
    database = await freshDatabase('postgres');
    const db = database.db;
    // one connection, so the statements below and the view read share it
    const seen = await db.connection().execute(async (conn) => {
      for (let i = 0; i < 3; i++) await conn.selectFrom('node_state').select('origin').where('id', '=', 1).execute();
      return (await sql<{ statement: string }>`select statement from pg_prepared_statements where statement like ${'%from "node_state"%'}`.execute(conn)).rows;
    });
    expect(seen.map((r) => r.statement)).toEqual(['select "origin" from "node_state" where "id" = $1']);
  });

  it('a statement whose table changed under it fails once, then runs again', async () => {
    database = await freshDatabase('postgres');
    const db = database.db;
    await db.connection().execute(async (conn) => {
      await sql`create table probe (id text primary key)`.execute(conn);
      await sql`insert into probe values ('a')`.execute(conn);
      const read = () => sql<Record<string, unknown>>`select * from probe where id = ${'a'}`.execute(conn);
      expect((await read()).rows).toEqual([{ id: 'a' }]);
      // another process's migration adds a column: the kept statement's columns are stale
      await sql`alter table probe add column n integer`.execute(conn);
      await expect(read()).rejects.toMatchObject({ code: '0A000' });
      expect((await read()).rows).toEqual([{ id: 'a', n: null }]);
    });
  });
});
