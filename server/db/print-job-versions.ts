import { CompiledQuery } from 'kysely';
import type { Executor } from './records.ts';
import { readRawRows } from './statement-shapes.ts';

const VERSION = CompiledQuery.raw('select n from print_job_versions where restaurant_id = ?', []);

/**
 * The hub's version of a restaurant's print jobs (migration 0703): it moves with every
 * insert, update and delete of one of its jobs, made by any process. Read it before the jobs
 * it guards. Undefined on PostgreSQL (no such counter there) and while a transaction holds
 * the hub's connection (it could only be read through that transaction).
 */
export function printJobsVersion(db: Executor, restaurantId: string): string | undefined {
  const rows = readRawRows(db, { ...VERSION, parameters: [restaurantId] });
  if (rows === undefined) return undefined;
  return String(rows[0]?.[0] ?? 0);
}
