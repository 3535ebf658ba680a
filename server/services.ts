import type { Kysely } from 'kysely';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { Dialect } from './db/database.ts';
import type { ServerProcess } from './db/processes.ts';
import type { DB } from './db/schema.ts';
import type { Transactor } from './db/transact.ts';
import type { Logger } from './logger.ts';

/**
 * What a running server holds, handed to every route. Features that need a long-lived
 * helper (dispatchers, notifiers, adapters) add it here and create it in server.ts.
 *
 * This interface is open: a feature may also add its own member from its file with
 * `declare module '../services.ts' { interface Services { … } }` (TypeScript's interface
 * merging), as server/features/guest.ts, printers.ts and server/operator/services.ts do; grep
 * for `declare module '../services.ts'` to see every member.
 */
export interface Services {
  db: Kysely<DB>;
  dialect: Dialect;
  /** PostgreSQL connection string (null on SQLite): realtime fan-out opens its own LISTEN connection. */
  databaseUrl: string | null;
  tx: Transactor;
  clock: Clock;
  logger: Logger;
  config: Config;
  /** this process as other processes on the database see it (claims name it) */
  process: ServerProcess;
}

/** Who a domain command acts for: one restaurant, live or sandbox, at one moment. */
export interface Actor {
  restaurantId: string;
  livemode: boolean;
  /** milliseconds */
  now: number;
}
