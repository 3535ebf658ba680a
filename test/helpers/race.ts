import { sql, type Kysely, type Transaction } from 'kysely';
import { expect } from 'vitest';
import type { DB } from '../../server/db/schema.ts';
import { until } from './until.ts';

/**
 * Two writers at the same moment on PostgreSQL, deterministically: `first` runs in a
 * transaction held open until `second` (started meanwhile in its own) is seen waiting for a
 * lock, then commits. Without a lock in the code under test, `second` does not wait and the
 * assertion inside fails. Resolves to what `second` returned, or the error it threw.
 */
export async function raceOnPostgres(
  db: Kysely<DB>,
  first: (trx: Transaction<DB>) => Promise<unknown>,
  second: (trx: Transaction<DB>) => Promise<unknown>,
): Promise<unknown> {
  let settled = false;
  let outcome: Promise<unknown> | undefined;
  await db.transaction().execute(async (trx) => {
    await first(trx);
    outcome = db
      .transaction()
      .execute(second)
      .then(
        (v) => v,
        (err: unknown) => err,
      )
      .finally(() => (settled = true));
    await until(
      'the second writer waiting for a lock (or done)',
      async () => settled || (await sql<{ n: number }>`select count(*)::int as n from pg_locks l join pg_stat_activity a on a.pid = l.pid where not l.granted and a.datname = current_database()`.execute(trx)).rows[0].n > 0,
      { every: 10 },
    );
    expect(settled, 'the second writer did not wait for the first').toBe(false);
  });
  return outcome;
}
