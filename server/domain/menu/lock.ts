import type { Executor } from '../../db/records.ts';
import { LOCKS, lockKey } from '../../db/row-locks.ts';

/**
 * Menu writes of one restaurant run one at a time (PostgreSQL; the hub's SQLite already
 * does): their rules read other menu rows first — a parent chain must not loop, a category
 * needs an active station, an item only names existing modifier groups — and two writes
 * checking at once would each pass against the menu as it was. Orders only read the menu
 * and never wait for this.
 */
export const lockMenu = (trx: Executor, restaurantId: string): Promise<void> => lockKey(trx, LOCKS.menu, restaurantId);
