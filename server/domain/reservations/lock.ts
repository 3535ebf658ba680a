import { sql } from 'kysely';
import type { Executor } from '../../db/records.ts';
import { locksRows } from '../../db/row-locks.ts';

// Namespace of this feature's advisory locks (the first of the two int4 keys).
const RESERVATIONS_LOCK = 4;

/**
 * Serialises table assignment per restaurant until the transaction ends, so two requests
 * for the last free table cannot both see it free. PostgreSQL: a transaction-scoped
 * advisory lock on (feature, restaurant). SQLite needs nothing: the hub has one connection
 * and kysely runs its transactions one after another.
 */
export async function lockFloor(trx: Executor, restaurantId: string): Promise<void> {
  if (!locksRows(trx)) return;
  await sql`select pg_advisory_xact_lock(${sql.lit(RESERVATIONS_LOCK)}, hashtext(${restaurantId}))`.execute(trx);
}
