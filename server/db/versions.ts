import type SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { flushChanges, type Executor } from './records.ts';
import type { DB, RecordTable } from './schema.ts';
import { keepRead, keptRead } from './transaction-memo.ts';

/**
 * The exact version of a restaurant's replicated records: its last change-log position,
 * over all its tables or only the given ones. Every write of such a record appends to the
 * change log in its own transaction, so the version moves with every commit, made by this
 * process or any other sharing the database. Read the version BEFORE the data it guards:
 * a cached value can then only be older than it claims, never newer.
 *
 * A version names the last entry by position AND op id: a unit of work that rolls back
 * frees its positions for the next one, so a value cached inside it must never match
 * what another unit later commits at the same position.
 */
export interface Versions {
  of(db: Executor, restaurantId: string, tables?: readonly RecordTable[]): Promise<string>;
}

type Last = { seq: number | string; op_id: string } | undefined;
const label = (rows: Last[]) => rows.map((r) => (r ? `${r.seq}:${r.op_id}` : '0')).join('|');

/** Any dialect: one indexed query per table (or one for the whole restaurant). */
export const queryVersions: Versions = {
  async of(db, restaurantId, tables) {
    // Inside a unit of work, its own changes must count: they are logged before reading.
    await flushChanges(db, tables);
    const k = db as Kysely<DB>;
    // ORDER BY … LIMIT 1 walks an index from its end; max() would scan every entry on SQLite.
    const last = (table?: string) => {
      let q = k.selectFrom('change_log').select(['seq', 'op_id']).where('restaurant_id', '=', restaurantId);
      if (table) q = q.where('table_name', '=', table);
      return q.orderBy('seq', 'desc').limit(1).executeTakeFirst();
    };
    return label(tables ? await Promise.all(tables.map(last)) : [await last()]);
  },
};

/**
 * SQLite: the same reads as prepared statements on the raw connection, a few microseconds
 * instead of a query through kysely. That is safe when the reader owns the connection (it
 * runs inside its unit of work) or when no transaction is open (it then reads what is
 * committed); otherwise it waits its turn through kysely like any other query.
 */
export function sqliteVersions(connection: SQLite.Database): Versions {
  const whole = connection.prepare('select seq, op_id from change_log where restaurant_id = ? order by seq desc limit 1');
  const byTable = connection.prepare('select seq, op_id from change_log where restaurant_id = ? and table_name = ? order by seq desc limit 1');
  // Several tables in one statement: outside a transaction each statement opens and closes a
  // read transaction of its own (WAL locks), which costs more than the index seeks. Each
  // column is the label of one table's last entry, as `label` writes it.
  const severalTables = new Map<number, SQLite.Statement>();
  const several = (n: number) => {
    let stmt = severalTables.get(n);
    if (!stmt) {
      const column = (i: number) =>
        `coalesce((select seq || ':' || op_id from change_log where restaurant_id = ? and table_name = ? order by seq desc limit 1), '0') as t${i}`;
      stmt = connection.prepare(`select ${Array.from({ length: n }, (_, i) => column(i)).join(', ')}`).raw(true);
      severalTables.set(n, stmt);
    }
    return stmt;
  };
  const read = (restaurantId: string, tables?: readonly string[]) => {
    if (!tables) return label([whole.get(restaurantId) as Last]);
    if (tables.length === 1) return label([byTable.get(restaurantId, tables[0]) as Last]);
    return (several(tables.length).get(tables.flatMap((t) => [restaurantId, t])) as string[]).join('|');
  };
  return {
    async of(db, restaurantId, tables) {
      if (db.isTransaction) {
        await flushChanges(db, tables);
        // the units of one group commit share what an earlier one read (db/transaction-memo.ts)
        const key = `version|${restaurantId}|${tables?.join(',') ?? ''}`;
        let version = keptRead<string>(db, key);
        if (version === undefined) keepRead(db, key, tables ?? null, (version = read(restaurantId, tables)));
        return version;
      }
      if (!connection.inTransaction) return read(restaurantId, tables);
      return queryVersions.of(db, restaurantId, tables);
    },
  };
}

const registered = new WeakMap<object, Versions>();

/** Makes `versions` the ones of every executor of `db` (see versionsOf). */
export function registerVersions(db: Kysely<any>, versions: Versions): void {
  registered.set(db.getExecutor().adapter, versions);
}

/**
 * The versions of the database behind an executor, for code that is handed a transaction
 * and nothing else (hooks inside the writing transaction).
 */
export function versionsOf(db: Executor): Versions {
  return registered.get((db as Kysely<any>).getExecutor().adapter) ?? queryVersions;
}
