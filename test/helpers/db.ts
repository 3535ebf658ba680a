import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type Database, type Dialect } from '../../server/db/database.ts';

/** The dialects this run covers: both unless TEST_DIALECTS narrows it. */
export const DIALECTS: Dialect[] = ((process.env.TEST_DIALECTS ?? 'sqlite,postgres').split(',') as Dialect[]).filter(
  (d) => d === 'sqlite' || d === 'postgres',
);

/** A fresh, migrated, empty database of the given dialect, dropped again by close(). */
export async function freshDatabase(dialect: Dialect, opts: { dataDir?: string } = {}): Promise<Database & { dropUrl?: string }> {
  if (dialect === 'sqlite') return openDatabase({ dataDir: opts.dataDir ?? ':memory:' });
  const admin = inject('pgUrl');
  if (!admin) throw new Error('no PostgreSQL for this run (TEST_DIALECTS excludes it)');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString() });
  return {
    ...database,
    url: url.toString(),
    async close() {
      await database.close();
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** A second connection to the same database (another process would have one). */
export async function reopen(database: Database, dataDir?: string): Promise<Database> {
  return database.dialect === 'postgres' ? openDatabase({ databaseUrl: database.url! }) : openDatabase({ dataDir: dataDir! });
}

/**
 * Runs a read or write of a hub's SQLite file from the test's process again while the hub's own
 * process holds the write lock (SQLITE_BUSY), as a second program on the PC would have to.
 */
export async function busyRetry<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (err: any) {
      if (!String(err?.code).startsWith('SQLITE_BUSY') || attempt >= 20) throw err;
      await new Promise((r) => setTimeout(r, 20 * (attempt + 1)));
    }
  }
}
