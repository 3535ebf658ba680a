import type { Executor } from '../../db/records.ts';
import { LOCKS, lockKey } from '../../db/row-locks.ts';

/**
 * Serialises table assignment per restaurant until the transaction ends, so two requests
 * for the last free table cannot both see it free (db/row-locks.ts).
 */
export const lockFloor = (trx: Executor, restaurantId: string): Promise<void> => lockKey(trx, LOCKS.reservationsFloor, restaurantId);
