import { PostgresAdapter, sql } from 'kysely';
import type { Executor } from './executor.ts';

/**
 * Whether a row read to be written back must be locked (SELECT … FOR UPDATE). On PostgreSQL
 * writers run side by side, and two that read the same row would each write back their own
 * copy, the later erasing the earlier. The hub's SQLite has one connection and one unit of
 * work writing at a time, so a read there is already the latest state until it commits.
 */
export const locksRows = (db: Executor): boolean => db.getExecutor().adapter instanceof PostgresAdapter;

/** Namespaces of advisory locks (the first of the two int4 keys), one per kind of check. */
export const LOCKS = { reservationsFloor: 4, customers: 5, menu: 6, serverProcess: 7, slugs: 8 } as const;

/**
 * Serialises a check-then-write per key until the transaction ends, where no row exists yet
 * to lock (two requests creating the same customer, or booking the last table). PostgreSQL:
 * a transaction-scoped advisory lock on (namespace, key). SQLite needs nothing, as above.
 */
export async function lockKey(trx: Executor, namespace: number, key: string): Promise<void> {
  if (!locksRows(trx)) return;
  await sql`select pg_advisory_xact_lock(${sql.lit(namespace)}, hashtext(${key}))`.execute(trx);
}
