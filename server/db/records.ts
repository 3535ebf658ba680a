import { sql, type Insertable, type Kysely, type Selectable, type Transaction, type Updateable } from 'kysely';
import { newId, PREFIXES } from '../ids.ts';
import { insertColumns, insertRows } from './statement-shapes.ts';
import { nodeOf, stampClock, type StampClock } from './hlc.ts';
import { lockScope, positionsMark, restorePositions, saveStamp, scopeOf, takePositions, type PositionsMark } from './log-positions.ts';
import type { DB, RecordTable } from './schema.ts';
import { locksRows } from './row-locks.ts';
import { forgetAll, forgetTables } from './transaction-memo.ts';

/** A connection or an open transaction; commands take whichever they are given. */
export type { Executor } from './executor.ts';
import type { Executor } from './executor.ts';

type Row<T extends RecordTable> = Selectable<DB[T]>;

/**
 * The one place a replicated record is written. Each write appends its change to the
 * change log in the same transaction, so sync and live screens can never miss one.
 * Call these inside a transaction (see db/transact.ts): the change and its log entry
 * must commit together.
 */
export async function insertRecord<T extends RecordTable>(trx: Executor, table: T, row: Insertable<DB[T]>): Promise<Row<T>> {
  const [saved] = (await insertRows(trx, table, [row as Record<string, unknown>], true)) as Row<T>[];
  await appendChange(trx, table, 'insert', saved as any);
  return saved;
}

/**
 * A record given with every column, as it will be stored: nothing needs reading back.
 * The hot writes (orders, events) take this way.
 */
export async function insertCompleteRecord<T extends RecordTable>(trx: Executor, table: T, row: Row<T>): Promise<Row<T>> {
  await insertRows(trx, table, [row as Record<string, unknown>], false);
  await appendChange(trx, table, 'insert', row as any);
  return row;
}

type Key = { id: string; restaurant_id?: string };

/** A query narrowed to one record: by id, and by restaurant where the key names one. */
const byKey = (q: any, key: Key): any => {
  const one = q.where('id', '=', key.id);
  return key.restaurant_id === undefined ? one : one.where('restaurant_id', '=', key.restaurant_id);
};

/** The one-row UPDATE of updateRecord and of a batch's patches: the new row, or undefined where it is gone. */
const updateRow = (trx: Executor, table: string, key: Key, patch: Record<string, unknown>): Promise<Record<string, unknown> | undefined> =>
  byKey((trx as Kysely<any>).updateTable(table).set(patch), key).returningAll().executeTakeFirst();

/** Updates one record of one restaurant; returns the new row, or undefined if it does not exist. */
export async function updateRecord<T extends RecordTable>(
  trx: Executor,
  table: T,
  key: { id: string; restaurant_id?: string },
  patch: Updateable<DB[T]>,
): Promise<Row<T> | undefined> {
  // a local write claims only the columns whose value it changes (see changedColumns)
  const fields = provenance.has(trx) ? [] : await changedColumns(trx, table, key, patch as Record<string, unknown>);
  const saved = (await updateRow(trx, table, key, patch as Record<string, unknown>)) as Row<T> | undefined;
  if (saved) await appendChange(trx, table, 'update', saved as any, fields);
  return saved;
}

/**
 * The columns of `patch` whose value differs from the stored row. Sync merges per column by
 * the clock of the change that last set it, so a save that sends a whole form (a price edited,
 * the name sent back as it was read) must not claim the name: it would overrule a rename made
 * on the other side meanwhile. Read under a row lock on PostgreSQL, so the comparison is with
 * the value this update replaces. Values that merely look alike across drivers (1 and '1')
 * count as equal; anything in doubt counts as changed, which is the old, safe behaviour.
 */
async function changedColumns(trx: Executor, table: string, key: { id: string; restaurant_id?: string }, patch: Record<string, unknown>): Promise<string[]> {
  const cols = Object.keys(patch);
  if (cols.length === 0) return cols;
  let q: any = byKey((trx as Kysely<any>).selectFrom(table).select(cols), key);
  if (locksRows(trx)) q = q.forUpdate();
  const before = (await q.executeTakeFirst()) as Record<string, unknown> | undefined;
  if (!before) return cols;
  return cols.filter((c) => !sameValue(patch[c], before[c]));
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === undefined || a === null || b === undefined || b === null) return false;
  if (typeof a === 'boolean' || typeof b === 'boolean') return Number(a) === Number(b) && (typeof a === 'boolean' ? typeof b === 'number' : typeof a === 'number');
  if (typeof a === 'object' || typeof b === 'object') {
    const parse = (v: unknown) => (typeof v === 'string' ? safeJson(v) : v);
    return JSON.stringify(sortKeys(parse(a))) === JSON.stringify(sortKeys(parse(b)));
  }
  return String(a) === String(b);
}

const safeJson = (s: string): unknown => {
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
};

const sortKeys = (v: unknown): unknown =>
  Array.isArray(v) ? v.map(sortKeys) : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys((v as any)[k])])) : v;

/** Truly deletes a record; the change log keeps its last state as a tombstone. */
export async function deleteRecord<T extends RecordTable>(
  trx: Executor,
  table: T,
  key: { id: string; restaurant_id?: string },
): Promise<Row<T> | undefined> {
  const removed = (await byKey((trx as Kysely<any>).deleteFrom(table as string), key).returningAll().executeTakeFirst()) as Row<T> | undefined;
  if (removed) await appendChange(trx, table, 'delete', removed as any);
  return removed;
}

type Op = 'insert' | 'update' | 'delete';
type LogRow = { id: string; restaurant_id?: string | null };

/** A big import writes its log as it goes rather than holding it all in memory. */
const MAX_PENDING = 1000;

/** One change waiting for its log position; the row is serialised when the change is made. */
type Entry = { table: string; op: Op; row: LogRow; data: string; fields?: string[] | null; from?: Provenance };

/**
 * Where a change came from when sync applies another node's change: its entry keeps that
 * node's identity and clock, so it is never sent back and merges the same way everywhere.
 */
export interface Provenance {
  /** left out (a repair taken from the other side's row): this node's own op id and position */
  op_id?: string;
  origin?: string;
  origin_seq?: number;
  hlc: string;
  /** the columns this node actually took from the change; null for all */
  fields: string[] | null;
}

const provenance = new WeakMap<object, Provenance>();

/** Runs `fn` (record writes on `trx`) as the application of another node's change. */
export async function asRemoteChange<T>(trx: Executor, from: Provenance, fn: () => Promise<T>): Promise<T> {
  provenance.set(trx, from);
  try {
    return await fn();
  } finally {
    provenance.delete(trx);
  }
}

/** Change-log entries of the unit of work running on a transaction, written when it ends. */
const pending = new WeakMap<object, Entry[]>();
/** The scopes (restaurant ids, '' for none) a transaction's units logged changes for. */
const written = new WeakMap<object, Set<string>>();

/**
 * From here until flushChanges, the changes made on `trx` are kept in memory and then
 * appended in one go: two statements per unit of work instead of two per record. The
 * Transactor calls this; writes on an executor it did not open are appended at once.
 */
export function beginChanges(trx: Executor): void {
  pending.set(trx, []);
  // units that share one transaction (group commit) add to one set
  if (!written.has(trx)) written.set(trx, new Set());
}

/**
 * What the units of work on `trx` logged changes for, by scope, taken once before it commits:
 * whoever waits on the commit for one restaurant (a hub's long poll on the cloud) is woken
 * only by commits of that restaurant. A unit rolled back to a savepoint may still be counted:
 * a needless wake-up costs a read, a missed one a change left waiting.
 */
export function takeWrittenScopes(trx: Executor): ReadonlySet<string> {
  const s = written.get(trx) ?? new Set<string>();
  written.delete(trx);
  return s;
}

/**
 * Appends what the unit of work changed to the change log, before it commits; with `tables`,
 * only if it changed one of them (a version of those tables is about to be read).
 */
export async function flushChanges(trx: Executor, tables?: readonly string[]): Promise<void> {
  const list = pending.get(trx);
  if (!list?.length) return;
  if (tables && !list.some((e) => tables.includes(e.table))) return;
  pending.set(trx, []);
  await writeLog(trx, list);
}

/** Where the unit's changes stand (pending ones, log positions taken): taken before a savepoint, for dropChangesSince. */
export function changesMark(trx: Executor): { pending: number; positions: PositionsMark } {
  return { pending: pending.get(trx)?.length ?? 0, positions: positionsMark(trx) };
}

/** The part of a unit rolled back to a savepoint: its pending changes after `mark` go too, and the log positions it took. */
export function dropChangesSince(trx: Executor, mark: ReturnType<typeof changesMark>): void {
  pending.get(trx)?.splice(mark.pending);
  restorePositions(trx, mark.positions);
  forgetAll(trx);
}

/** Forgets the changes of a unit of work that was rolled back. */
export function discardChanges(trx: Executor): void {
  pending.delete(trx);
}

async function appendChange(trx: Executor, table: string, op: Op, row: LogRow, fields?: string[]): Promise<void> {
  // The row is serialised now: a caller may change its object after the write.
  const from = provenance.get(trx);
  await logChanges(trx, [{ table, op, row, data: JSON.stringify(row), fields: from ? from.fields : (fields ?? null), from }]);
}

/** Into the unit's pending entries, or straight to the log when no unit of work is open. */
async function logChanges(trx: Executor, entries: Entry[]): Promise<void> {
  const list = pending.get(trx);
  if (!list) return writeLog(trx, entries);
  // one by one: an import may hand over more entries than a call takes arguments
  for (const e of entries) list.push(e);
  if (list.length >= MAX_PENDING) await flushChanges(trx);
}

async function writeLog(trx: Executor, entries: Entry[]): Promise<void> {
  // Each restaurant's entries are ordered by that restaurant's own lock (db/log-positions.ts),
  // so restaurants never wait on each other. Its stamps are taken under the same lock, after
  // the last one persisted by whichever process wrote for it before: two processes of one
  // node (their wall clocks apart) stamp a restaurant's changes in commit order. A flush locks
  // its scopes in sorted order; two units that lock the same two in two flushes each may
  // deadlock, and PostgreSQL's abort makes the Transactor run one of them again.
  const scopes = entries.map((e) => scopeOf(e.table === 'restaurants' ? e.row.id : e.row.restaurant_id));
  // versions this transaction kept (db/transaction-memo.ts) of these tables move now
  forgetTables(trx, new Set(entries.map((e) => e.table)));
  const wrote = written.get(trx);
  if (wrote) for (const s of scopes) wrote.add(s);
  const clocks = new Map<string, StampClock>();
  for (const scope of [...new Set(scopes)].sort()) clocks.set(scope, stampClock(trx, await lockScope(trx, scope)));
  const n = entries.length;
  const { origin, seqs } = await takePositions(trx, n);
  const node = nodeOf(origin);
  const stamps = entries.map((e, i) => {
    const clock = clocks.get(scopes[i])!;
    return e.from ? (clock.observe(e.from.hlc), e.from.hlc) : clock.next(node);
  });
  for (const [scope, clock] of clocks) await saveStamp(trx, scope, clock.last(node));
  const created = Date.now();
  const log = entries.map((e, i) => ({
    seq: seqs[i],
    op_id: e.from?.op_id ?? newId(PREFIXES.change),
    origin: e.from?.origin ?? origin,
    origin_seq: e.from?.origin_seq ?? seqs[i],
    restaurant_id: scopes[i] === '' ? null : scopes[i],
    table_name: e.table,
    row_id: e.row.id,
    op: e.op,
    data: e.data,
    created,
    hlc: stamps[i],
    fields: e.fields ? JSON.stringify(e.fields) : null,
  }));
  if (n > 16 && locksRows(trx)) {
    // PostgreSQL: one array per column (insertColumns); each row's text goes in as an element
    // of one JSON array, stored as written (an array literal would escape every quote in it)
    await insertColumns(
      trx,
      'change_log',
      LOG_COLUMNS.map(([name, type]) => (name === 'data' ? { name, json: log.map((r) => r.data) } : { name, type, values: log.map((r) => r[name]) })),
    );
    return;
  }
  // Both dialects bind at most ~32k parameters per statement; 12 columns per entry.
  for (let i = 0; i < log.length; i += 1000) await insertRows(trx, 'change_log', log.slice(i, i + 1000), false);
}

/** The change log's columns with their PostgreSQL types, for insertColumns. */
const LOG_COLUMNS = [
  ['seq', 'bigint'],
  ['op_id', 'text'],
  ['origin', 'text'],
  ['origin_seq', 'bigint'],
  ['restaurant_id', 'text'],
  ['table_name', 'text'],
  ['row_id', 'text'],
  ['op', 'text'],
  ['data', 'text'],
  ['created', 'bigint'],
  ['hlc', 'text'],
  ['fields', 'text'],
] as const;

/** How many columns each table has, learned from a row read back (insertRecords). */
const widths = new Map<string, number>();

/**
 * Many new records of one table at once (imports, demo history): multi-row INSERTs in
 * chunks, and one change-log entry per row, exactly as insertRecord would append them.
 * A change carries the whole row (the other node refuses less), so local rows that leave
 * columns to their defaults (kysely lets a nullable or generated column be left out) are
 * read back as stored and logged so; rows as wide as the table are logged as given.
 */
export async function insertRecords<T extends RecordTable>(
  trx: Executor,
  table: T,
  rows: Insertable<DB[T]>[],
  /** per row, where it came from when sync applies other nodes' inserts in bulk */
  from?: Provenance[],
): Promise<void> {
  if (rows.length === 0) return;
  const width = widths.get(table);
  if (!from && (width === undefined || rows.some((r) => Object.keys(r).length < width))) {
    const stored = new Map<string, Record<string, unknown>>();
    for (let i = 0; i < rows.length; i += 500) {
      for (const r of await insertRows(trx, table, rows.slice(i, i + 500) as Record<string, unknown>[], true)) stored.set(String(r.id), r);
    }
    const whole = rows.map((r) => stored.get(String((r as { id: unknown }).id))!);
    widths.set(table, Object.keys(whole[0]).length);
    await logChanges(
      trx,
      whole.map((row) => ({ table, op: 'insert' as const, row: row as LogRow, data: JSON.stringify(row), fields: null, from: undefined })),
    );
    return;
  }
  await writeRecords(
    trx,
    rows.map((row, i) => ({ op: 'insert' as const, table, row: row as Record<string, unknown>, from: from?.[i] })),
  );
}

/** One write of a batch (writeRecords): a new record, or a patch of one this node has. */
export type RecordWrite =
  | { op: 'insert'; table: RecordTable; row: Record<string, unknown>; from?: Provenance }
  | { op: 'update'; table: RecordTable; key: { id: string; restaurant_id?: string }; patch: Record<string, unknown>; from: Provenance };

/**
 * Many writes of several tables at once, as another node's batch brings them (sync/apply.ts):
 * new rows go in multi-row INSERTs per table, then the patches, as one multi-row UPDATE per
 * table and set of columns on PostgreSQL (where each statement is a round trip), and the
 * change log gets one entry per write in the order given, exactly as insertRecord and
 * updateRecord one by one would append them. Each write runs under its own provenance; a
 * row is patched at most once per call, and new rows carry every column. Nothing in the
 * schema refers across tables by foreign key, so the tables may be written in any order
 * within the unit. Returns each update's new row (undefined where the row is gone).
 */
export async function writeRecords(trx: Executor, writes: RecordWrite[]): Promise<(Record<string, unknown> | undefined)[]> {
  const out: (Record<string, unknown> | undefined)[] = new Array(writes.length);
  if (writes.length === 0) return out;
  const inserts = new Map<string, Record<string, unknown>[]>();
  const updates = new Map<string, number[]>();
  writes.forEach((w, i) => {
    if (w.op === 'insert') {
      let rows = inserts.get(w.table);
      if (!rows) inserts.set(w.table, (rows = []));
      rows.push(w.row);
      return;
    }
    const group = `${w.table}|${'restaurant_id' in w.key ? 'r' : ''}|${Object.keys(w.patch).sort().join(',')}`;
    let list = updates.get(group);
    if (!list) updates.set(group, (list = []));
    list.push(i);
  });
  // Both dialects bind at most ~32k parameters per statement; stay well below.
  const perChunk = (cols: number) => Math.max(1, Math.min(1000, Math.floor(30_000 / cols)));
  for (const [table, rows] of inserts) {
    const size = perChunk(Object.keys(rows[0]).length);
    for (let i = 0; i < rows.length; i += size) await insertRows(trx, table, rows.slice(i, i + size), false);
  }
  for (const list of updates.values()) {
    const saved = await updateMany(trx, list.map((i) => writes[i] as Extract<RecordWrite, { op: 'update' }>));
    list.forEach((i, k) => (out[i] = saved[k]));
  }
  const entries: Entry[] = [];
  writes.forEach((w, i) => {
    if (w.op === 'insert') {
      entries.push({ table: w.table, op: 'insert', row: w.row as LogRow, data: JSON.stringify(w.row), fields: w.from?.fields ?? null, from: w.from });
    } else if (out[i]) {
      entries.push({ table: w.table, op: 'update', row: out[i] as LogRow, data: JSON.stringify(out[i]), fields: w.from.fields, from: w.from });
    }
  });
  await logChanges(trx, entries);
  return out;
}

/** Patches of one table that set the same columns; each row's new state, in the order given. */
async function updateMany(trx: Executor, list: Extract<RecordWrite, { op: 'update' }>[]): Promise<(Record<string, unknown> | undefined)[]> {
  const { table } = list[0];
  if (!locksRows(trx) || list.length === 1) {
    // the hub's SQLite runs in-process: a statement costs no round trip there
    const out: (Record<string, unknown> | undefined)[] = [];
    for (const u of list) out.push(await updateRow(trx, table, u.key, u.patch));
    return out;
  }
  const cols = Object.keys(list[0].patch);
  const scoped = list[0].key.restaurant_id !== undefined;
  const byId = new Map<string, Record<string, unknown>>();
  for (let i = 0; i < list.length; i += 1000) {
    const chunk = list.slice(i, i + 1000);
    // one parameter: the patches as JSON, typed by the table's own row type
    const values = JSON.stringify(chunk.map((u) => ({ ...u.patch, id: u.key.id, ...(scoped ? { restaurant_id: u.key.restaurant_id } : {}) })));
    const set = sql.join(cols.map((c) => sql`${sql.ref(c)} = v.${sql.ref(c)}`));
    const res = await sql<Record<string, unknown>>`update ${sql.table(table)} as t set ${set}
      from json_populate_recordset(null::${sql.table(table)}, ${values}::json) as v
      where t.id = v.id ${scoped ? sql`and t.restaurant_id = v.restaurant_id` : sql``}
      returning t.*`.execute(trx);
    for (const r of res.rows) byId.set(String(r.id), r);
  }
  return list.map((u) => byId.get(u.key.id));
}
