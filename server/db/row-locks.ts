import { PostgresAdapter } from 'kysely';
import type { Executor } from './records.ts';

/**
 * Whether a row read to be written back must be locked (SELECT … FOR UPDATE). On PostgreSQL
 * writers run side by side, and two that read the same row would each write back their own
 * copy, the later erasing the earlier. The hub's SQLite has one connection and one unit of
 * work writing at a time, so a read there is already the latest state until it commits.
 */
export const locksRows = (db: Executor): boolean => db.getExecutor().adapter instanceof PostgresAdapter;
