import { openDatabase } from '../db/database.ts';
import type { Flags } from './args.ts';

/** --database-url / DATABASE_URL selects PostgreSQL; otherwise SQLite under --data-dir (default ./data). */
export function openFromFlags(flags: Flags) {
  const databaseUrl = (flags['database-url'] as string | undefined) ?? process.env.DATABASE_URL ?? null;
  return openDatabase({ databaseUrl, dataDir: (flags['data-dir'] as string | undefined) ?? './data' });
}
