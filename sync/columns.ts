import type { Kysely } from 'kysely';
import type { Executor } from '../server/db/records.ts';

/** Each database's columns per table, read once: a batch may only name columns that exist. */
const known = new WeakMap<object, Promise<Map<string, Set<string>>>>();

export async function columnsOf(db: Executor, table: string): Promise<Set<string>> {
  const key = (db as Kysely<any>).getExecutor().adapter;
  let all = known.get(key);
  if (!all) {
    all = (db as Kysely<any>).introspection
      .getTables()
      .then((ts) => new Map(ts.map((t) => [t.name, new Set(t.columns.map((c) => c.name))])));
    known.set(key, all);
  }
  return (await all).get(table) ?? new Set();
}
