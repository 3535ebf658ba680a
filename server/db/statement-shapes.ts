import { createRequire } from 'node:module';
import type SQLite from 'better-sqlite3';
import { CompiledQuery, PostgresAdapter, sql, type Compilable, type Kysely, type QueryResult } from 'kysely';
import type { Executor } from './executor.ts';

interface Shape {
  sql: string;
  /** the same SQL prepared on the raw SQLite connection, once first run there */
  stmt?: SQLite.Statement;
}

/** Each statement shape (by its key), per dialect adapter. */
const shapes = new WeakMap<object, Map<string, Shape>>();
/** The raw connection behind a SQLite kysely instance (see database.ts). */
const rawConnections = new WeakMap<object, SQLite.Database>();

/** Lets shapes run on the raw connection of `db` inside its units of work. */
export function registerRawSqlite(db: Kysely<any>, connection: SQLite.Database): void {
  rawConnections.set(db.getExecutor().adapter, connection);
}

/**
 * The file behind a SQLite kysely instance, and the driver's module to open it with, for a
 * reader on a thread of its own; undefined for PostgreSQL, an in-memory database or a
 * transaction (another connection would not see its uncommitted rows).
 */
export function sqliteFileOf(db: Executor): { file: string; module: string } | undefined {
  if ((db as Kysely<any>).isTransaction) return undefined;
  const raw = rawConnections.get((db as Kysely<any>).getExecutor().adapter);
  return raw && !raw.memory ? { file: raw.name, module: createRequire(import.meta.url).resolve('better-sqlite3') } : undefined;
}

function known(k: Kysely<any>) {
  const adapter = k.getExecutor().adapter;
  let map = shapes.get(adapter);
  if (!map) shapes.set(adapter, (map = new Map()));
  return { map, raw: rawConnections.get(adapter) };
}

/**
 * Runs a known shape with new values. Inside a unit of work on SQLite the unit owns the one
 * connection, so the prepared statement runs on it directly and skips kysely's executor;
 * anywhere else the compiled text goes through kysely like any query.
 */
async function runKnown<R>(k: Kysely<any>, shape: Shape, raw: SQLite.Database | undefined, params: unknown[]): Promise<QueryResult<R>> {
  if (raw && k.isTransaction) {
    shape.stmt ??= raw.prepare(shape.sql);
    if (shape.stmt.reader) return { rows: shape.stmt.all(params) as R[] };
    const info = shape.stmt.run(params);
    return { rows: [], numAffectedRows: BigInt(info.changes) };
  }
  return k.executeQuery<R>(CompiledQuery.raw(shape.sql, params));
}

/**
 * INSERT of rows that all carry the same defined columns. The write path inserts the same
 * few shapes all day: each is built and compiled by kysely once, then run again with new
 * values, which skips the builder and compiler on every order, line and log entry.
 */
export async function insertRows(
  db: Executor,
  table: string,
  rows: Record<string, unknown>[],
  returning: boolean,
): Promise<Record<string, unknown>[]> {
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
  // Big batches (imports, demo history, a sync batch) vary in size: caching each size would only hoard text.
  if (!uniform || rows.length > 16) {
    if (uniform && !returning && k.getExecutor().adapter instanceof PostgresAdapter && rows.every(plainValues)) {
      const types = await columnTypes(k, table, cols);
      await insertColumns(
        k,
        table,
        cols.map((name) => ({ name, type: types.get(name)!, values: rows.map((r) => r[name]) })),
      );
      return [];
    }
    return (await build().execute()) as unknown as Record<string, unknown>[];
  }
  const { map, raw } = known(k);
  const key = `${table}|${returning ? 'r' : ''}|${rows.length}|${cols.join(',')}`;
  const shape = map.get(key);
  if (shape === undefined) {
    const query = build().compile();
    map.set(key, { sql: query.sql });
    return (await k.executeQuery(query)).rows as unknown as Record<string, unknown>[];
  }
  const params: unknown[] = [];
  for (const r of rows) for (const c of cols) params.push(r[c]);
  return (await runKnown<Record<string, unknown>>(k, shape, raw, params)).rows;
}

/** Every value a string, a finite number or null: what JSON carries to PostgreSQL exactly as a bound parameter. */
function plainValues(row: Record<string, unknown>): boolean {
  for (const k in row) {
    const v = row[k];
    if (v !== null && typeof v !== 'string' && !(typeof v === 'number' && Number.isFinite(v))) return false;
  }
  return true;
}

/** A column of insertColumns: its values with their PostgreSQL type, or JSON texts stored as written. */
export type ColumnValues = { name: string; type: string; values: unknown[] } | { name: string; json: string[] };

/**
 * PostgreSQL: many rows as one array parameter per column (`unnest`), zipped by `rows from`.
 * A VALUES list binds a parameter per value: for a sync batch of a thousand log entries that
 * is 12,000 parameters for kysely to build and compile, the driver to bind and PostgreSQL to
 * parse and plan, which cost more than the insert itself. The rows as one JSON parameter
 * (`json_populate_recordset`, the way before this) cost PostgreSQL about 35 µs per row of a
 * sync batch to take apart (a hash table per object), three times the insert with all its
 * indexes; an array is split in about a tenth of that. A column given as JSON texts (a
 * change-log entry's row) goes in as one JSON array: each element's text is stored exactly
 * as written.
 */
export async function insertColumns(db: Executor, table: string, columns: ColumnValues[]): Promise<void> {
  const names = sql.join(columns.map((c) => sql.ref(c.name)));
  const sources = sql.join(
    columns.map((c) => {
      if ('json' in c) return sql`json_array_elements(${`[${c.json.join(',')}]`}::json)`;
      // texts go as one JSON array: V8's JSON.stringify escapes them natively, where an array
      // literal escaped each quote of a text holding JSON (an event's payload) in script
      if (c.type === 'text' && c.values.every(jsonSafeText)) return sql`json_array_elements_text(${JSON.stringify(c.values)}::json)`;
      return sql`unnest(${arrayLiteral(c.values)}::${sql.raw(c.type)}[])`;
    }),
  );
  await sql`insert into ${sql.table(table)} (${names}) select * from rows from (${sources})`.execute(db);
}

/**
 * A value JSON carries to a PostgreSQL text exactly: null, or a string PostgreSQL can hold as
 * JSON text (no lone surrogate, which JSON.stringify writes as an escape PostgreSQL refuses;
 * no NUL, which no text holds either way).
 */
const jsonSafeText = (v: unknown): boolean => v === null || (typeof v === 'string' && (v as WellFormed).isWellFormed() && !v.includes('\0'));
/** ES2024's String.prototype.isWellFormed, which Node 20 has and this project's `lib` does not name */
type WellFormed = string & { isWellFormed(): boolean };

const ESCAPED = /["\\]/;

/**
 * A PostgreSQL array literal of strings, finite numbers and nulls: every string quoted, so
 * no text (empty, "NULL", braces, commas, spaces) is read as anything else. The driver's own
 * conversion runs two replaces over every string; almost none needs one here.
 */
function arrayLiteral(values: unknown[]): string {
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) out += ',';
    const v = values[i];
    if (v === null || v === undefined) out += 'NULL';
    else if (typeof v === 'number') out += String(v);
    else {
      const s = String(v);
      out += ESCAPED.test(s) ? `"${s.replace(/["\\]/g, '\\$&')}"` : `"${s}"`;
    }
  }
  return out + '}';
}

/** Per PostgreSQL adapter, each table's column types as the catalog names them (read once). */
const typesByAdapter = new WeakMap<object, Map<string, Map<string, string>>>();

/** The PostgreSQL types of a table's columns, read from the catalog once per table (again if one asked for is missing: a migration added it). */
async function columnTypes(k: Kysely<any>, table: string, cols: string[]): Promise<Map<string, string>> {
  const adapter = k.getExecutor().adapter;
  let tables = typesByAdapter.get(adapter);
  if (!tables) typesByAdapter.set(adapter, (tables = new Map()));
  let types = tables.get(table);
  if (!types || cols.some((c) => !types!.has(c))) {
    const rows = await sql<{ name: string; type: string }>`select attname as name, format_type(atttypid, atttypmod) as type from pg_attribute
      where attrelid = ${table}::regclass and attnum > 0 and not attisdropped`.execute(k);
    tables.set(table, (types = new Map(rows.rows.map((r) => [r.name, r.type]))));
    const missing = cols.find((c) => !types!.has(c));
    if (missing) throw new Error(`table ${table} has no column ${missing}`);
  }
  return types;
}

/**
 * A statement of fixed shape (a counter bump, a sequence step), compiled by kysely once per
 * dialect and then run with `params`, which must be the values kysely binds, in its order:
 * the first run checks that they are.
 */
export async function runShape<R>(db: Executor, key: string, build: () => Compilable<R>, params: unknown[]): Promise<QueryResult<R>> {
  const k = db as Kysely<any>;
  const { map, raw } = known(k);
  let shape = map.get(key);
  if (shape === undefined) {
    const compiled = build().compile();
    if (JSON.stringify(compiled.parameters) !== JSON.stringify(params)) {
      throw new Error(`statement ${key}: parameters ${JSON.stringify(params)} are not kysely's ${JSON.stringify(compiled.parameters)}`);
    }
    map.set(key, (shape = { sql: compiled.sql }));
  }
  return runKnown<R>(k, shape, raw, params);
}

const rawReads = new WeakMap<SQLite.Database, Map<string, SQLite.Statement>>();

/**
 * A read whose rows are wanted as arrays of column values (in the order selected), run on
 * the hub's raw SQLite connection when no transaction holds it: it then sees only committed
 * rows, and skips kysely's executor and the building of an object per row. Undefined where
 * that does not hold (PostgreSQL, inside a unit of work, or another unit's transaction is
 * open on the connection): run the query through kysely then.
 */
export function readRawRows(db: Executor, query: CompiledQuery): unknown[][] | undefined {
  const k = db as Kysely<any>;
  if (k.isTransaction) return undefined;
  const raw = rawConnections.get(k.getExecutor().adapter);
  if (!raw || raw.inTransaction) return undefined;
  let statements = rawReads.get(raw);
  if (!statements) rawReads.set(raw, (statements = new Map()));
  let stmt = statements.get(query.sql);
  if (!stmt) {
    stmt = raw.prepare(query.sql).raw(true);
    // the text of a read varies with its filters only; keep a bounded number of them
    if (statements.size < 200) statements.set(query.sql, stmt);
  }
  return stmt.all(query.parameters as unknown[]) as unknown[][];
}
