import pg from 'pg';

/**
 * A dump and restore of one PostgreSQL database into another (migrated, empty) one: every
 * table's rows, exactly as they stand, as `pg_dump --data-only | pg_restore` would carry them.
 * (The pg_dump on this machine is older than the embedded server and refuses to dump it.)
 */
export async function copyPostgres(fromUrl: string, toUrl: string): Promise<number> {
  const from = new pg.Client({ connectionString: fromUrl });
  const to = new pg.Client({ connectionString: toUrl });
  await Promise.all([from.connect(), to.connect()]);
  let rows = 0;
  try {
    // one snapshot of the source, as pg_dump takes
    await from.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const tables = (
      await from.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name NOT LIKE 'kysely_%' ORDER BY table_name`)
    ).rows.map((r) => r.table_name as string);
    await to.query('BEGIN');
    await to.query(`TRUNCATE ${tables.map((t) => `"${t}"`).join(', ')}`);
    for (const t of tables) {
      const { rows: [r] } = await from.query(`SELECT coalesce(json_agg(x), '[]'::json)::text AS data, count(*)::int AS n FROM "${t}" x`);
      if (r.n === 0) continue;
      await to.query(`INSERT INTO "${t}" SELECT * FROM json_populate_recordset(null::"${t}", $1::json)`, [r.data]);
      rows += r.n;
    }
    await to.query('COMMIT');
    await from.query('COMMIT');
  } finally {
    await Promise.all([from.end(), to.end()]);
  }
  return rows;
}
