import type { Kysely, Transaction } from 'kysely';
import type { DB } from './schema.ts';

/** The database or a transaction on it: every command and write takes one of these first. */
export type Executor = Kysely<DB> | Transaction<DB>;
