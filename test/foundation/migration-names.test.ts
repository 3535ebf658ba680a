import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, type Migration } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../server/db/migrations/index.ts';

// Migration names (docs/contributors/architecture.md): the numbered names of before stay as
// databases recorded them; new ones are timestamped, T<yyyymmdd>-<hhmm>_what, which sorts after
// every numbered name (a letter after the digits) and among themselves by time. kysely applies
// pending migrations in the names' string order, so that order is the one rule.
const NUMBERED = /^\d{4}_[a-z0-9_]+$/;
const TIMESTAMPED = /^T(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})_[a-z0-9_]+$/;

const realTime = (name: string) => {
  const [, y, mo, d, h, mi] = TIMESTAMPED.exec(name)!.map(Number);
  const t = new Date(Date.UTC(y, mo - 1, d, h, mi));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d && t.getUTCHours() === h && t.getUTCMinutes() === mi;
};

/** Runs the given migrations the way server/db/database.ts does; the order they ran in. */
async function runOrder(names: string[], db = new Kysely<any>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) }), ran: string[] = []) {
  const make = (name: string): Migration => ({ up: async () => void ran.push(name) });
  const migrator = new Migrator({ db, provider: { getMigrations: async () => Object.fromEntries(names.map((n) => [n, make(n)])) }, allowUnorderedMigrations: true });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
  return { db, ran };
}

describe('migration names', () => {
  it('every migration is numbered (as before) or timestamped, with a real date and time', () => {
    const names = Object.keys(migrations);
    expect(names.filter((n) => !NUMBERED.test(n) && !TIMESTAMPED.test(n))).toEqual([]);
    expect(names.filter((n) => TIMESTAMPED.test(n) && !realTime(n))).toEqual([]);
    expect(names).toContain('0001_foundation');
  });

  it('a fresh database runs the numbered names by number, then the timestamped ones by time', async () => {
    const names = ['T20270105-0930_later', '2900_line_sender', '0001_foundation', 'T20261128-2215_first', '2050_former_slugs'];
    const { db, ran } = await runOrder(names);
    expect(ran).toEqual(['0001_foundation', '2050_former_slugs', '2900_line_sender', 'T20261128-2215_first', 'T20270105-0930_later']);
    await db.destroy();
  });

  it('a database that has run the numbered ones runs a new timestamped one, and nothing twice', async () => {
    const first = await runOrder(['0001_foundation', '2900_line_sender']);
    const { ran } = await runOrder(['0001_foundation', '2900_line_sender', 'T20261128-2215_new', '2950_from_a_parallel_branch'], first.db);
    expect(ran).toEqual(['2950_from_a_parallel_branch', 'T20261128-2215_new']);
    await first.db.destroy();
  });
});
