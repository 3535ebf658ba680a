import { CompiledQuery, type Compilable, type Kysely, type QueryResult } from 'kysely';
import type { Executor } from './records.ts';

/** SQL text of each insert shape (table, columns, row count, returning), per dialect. */
const shapes = new WeakMap<object, Map<string, string>>();

/**
 * INSERT of rows that all carry the same defined columns. The write path inserts the same
 * few shapes all day: each is built and compiled by kysely once, then run again with new
 * values, which skips the builder and compiler on every order, line and log entry.
 */
export async function insertRows(db: Executor, table: string, rows: Record<string, unknown>[], returning: boolean): Promise<Record<string, unknown>[]> {
  const k = db as Kysely<any>;
  const cols = Object.keys(rows[0]);
  // kysely leaves out undefined values, and fills columns missing from some rows with
  // DEFAULT: such rows are not one shape and take the ordinary way.
  const uniform = rows.every((r) => {
    const keys = Object.keys(r);
    return keys.length === cols.length && cols.every((c) => r[c] !== undefined);
  });
  const build = () => {
    const q = k.insertInto(table).values(rows);
    return returning ? q.returningAll() : q;
  };
  // Big batches (imports, demo history) vary in size: caching each size would only hoard text.
  if (!uniform || rows.length > 16) return (await build().execute()) as Record<string, unknown>[];
  const adapter = k.getExecutor().adapter;
  let known = shapes.get(adapter);
  if (!known) shapes.set(adapter, (known = new Map()));
  const key = `${table}|${returning ? 'r' : ''}|${rows.length}|${cols.join(',')}`;
  const text = known.get(key);
  let query: CompiledQuery;
  if (text === undefined) {
    query = build().compile();
    known.set(key, query.sql);
  } else {
    const params: unknown[] = [];
    for (const r of rows) for (const c of cols) params.push(r[c]);
    query = CompiledQuery.raw(text, params);
  }
  return (await k.executeQuery(query)).rows as Record<string, unknown>[];
}

/**
 * A statement of fixed shape (a counter bump, a sequence step), compiled by kysely once per
 * dialect and then run with `params`, which must be the values kysely binds, in its order:
 * the first run checks that they are.
 */
export async function runShape<R>(db: Executor, key: string, build: () => Compilable<R>, params: unknown[]): Promise<QueryResult<R>> {
  const k = db as Kysely<any>;
  const adapter = k.getExecutor().adapter;
  let known = shapes.get(adapter);
  if (!known) shapes.set(adapter, (known = new Map()));
  let text = known.get(key);
  if (text === undefined) {
    const compiled = build().compile();
    if (JSON.stringify(compiled.parameters) !== JSON.stringify(params)) {
      throw new Error(`statement ${key}: parameters ${JSON.stringify(params)} are not kysely's ${JSON.stringify(compiled.parameters)}`);
    }
    known.set(key, (text = compiled.sql));
  }
  return k.executeQuery<R>(CompiledQuery.raw(text, params));
}
