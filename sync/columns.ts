import type { Kysely } from 'kysely';
import type { Executor } from '../server/db/records.ts';

/** What a batch's value must be to go in a column: its kind, and whether it may be null. */
export interface ColumnInfo {
  kind: 'text' | 'number';
  nullable: boolean;
}

/** Each database's columns per table, read once: a batch may only name columns that exist. */
const known = new WeakMap<object, Promise<Map<string, Map<string, ColumnInfo>>>>();

function read(db: Executor): Promise<Map<string, Map<string, ColumnInfo>>> {
  const key = (db as Kysely<any>).getExecutor().adapter;
  let all = known.get(key);
  if (!all) {
    all = (db as Kysely<any>).introspection.getTables().then(
      (ts) =>
        new Map(
          ts.map((t) => [
            t.name,
            new Map(t.columns.map((c) => [c.name, { kind: /int|real|float|double|numeric|decimal/i.test(c.dataType) ? 'number' : 'text', nullable: c.isNullable } as ColumnInfo])),
          ]),
        ),
    );
    known.set(key, all);
  }
  return all;
}

export async function columnsOf(db: Executor, table: string): Promise<Set<string>> {
  return new Set((await read(db)).get(table)?.keys() ?? []);
}

/** A table's columns with what each takes (sync/apply.ts checks every value of a batch against it). */
export async function columnInfoOf(db: Executor, table: string): Promise<Map<string, ColumnInfo>> {
  return (await read(db)).get(table) ?? new Map();
}
