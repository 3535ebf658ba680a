import type { Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';
import { newId, PREFIXES } from '../ids.ts';
import type { DB, RecordTable } from './schema.ts';

/** A connection or an open transaction; commands take whichever they are given. */
export type Executor = Kysely<DB> | Transaction<DB>;

type Row<T extends RecordTable> = Selectable<DB[T]>;

/**
 * The one place a replicated record is written. Each write appends its change to the
 * change log in the same transaction, so sync and live screens can never miss one.
 * Call these inside a transaction (see db/transact.ts): the change and its log entry
 * must commit together.
 */
export async function insertRecord<T extends RecordTable>(trx: Executor, table: T, row: Insertable<DB[T]>): Promise<Row<T>> {
  const saved = (await (trx as Kysely<any>).insertInto(table).values(row).returningAll().executeTakeFirstOrThrow()) as Row<T>;
  await appendChange(trx, table, 'insert', saved as any);
  return saved;
}

/** Updates one record of one restaurant; returns the new row, or undefined if it does not exist. */
export async function updateRecord<T extends RecordTable>(
  trx: Executor,
  table: T,
  key: { id: string; restaurant_id?: string },
  patch: Updateable<DB[T]>,
): Promise<Row<T> | undefined> {
  let q: any = (trx as Kysely<any>).updateTable(table as string).set(patch as any).where('id', '=', key.id);
  if (key.restaurant_id !== undefined) q = q.where('restaurant_id', '=', key.restaurant_id);
  const saved = (await q.returningAll().executeTakeFirst()) as Row<T> | undefined;
  if (saved) await appendChange(trx, table, 'update', saved as any);
  return saved;
}

/** Truly deletes a record; the change log keeps its last state as a tombstone. */
export async function deleteRecord<T extends RecordTable>(
  trx: Executor,
  table: T,
  key: { id: string; restaurant_id?: string },
): Promise<Row<T> | undefined> {
  let q: any = (trx as Kysely<any>).deleteFrom(table as string).where('id', '=', key.id);
  if (key.restaurant_id !== undefined) q = q.where('restaurant_id', '=', key.restaurant_id);
  const removed = (await q.returningAll().executeTakeFirst()) as Row<T> | undefined;
  if (removed) await appendChange(trx, table, 'delete', removed as any);
  return removed;
}

async function appendChange(
  trx: Executor,
  table: string,
  op: 'insert' | 'update' | 'delete',
  row: { id: string; restaurant_id?: string; updated?: number },
): Promise<void> {
  // Taking the next number is an UPDATE of the single node_state row: it holds a row lock
  // until commit, so on PostgreSQL positions are handed out in commit order with no gaps.
  const { origin, seq } = await (trx as Kysely<DB>)
    .updateTable('node_state')
    .set((eb) => ({ seq: eb('seq', '+', 1) }))
    .where('id', '=', 1)
    .returning(['origin', 'seq'])
    .executeTakeFirstOrThrow();
  await (trx as Kysely<DB>)
    .insertInto('change_log')
    .values({
      seq,
      op_id: newId(PREFIXES.change),
      origin,
      origin_seq: seq,
      restaurant_id: table === 'restaurants' ? row.id : (row.restaurant_id ?? null),
      table_name: table,
      row_id: row.id,
      op,
      data: JSON.stringify(row),
      created: Date.now(),
    })
    .execute();
}

/**
 * Many new records of one table at once (imports, demo history): multi-row INSERTs in
 * chunks, and one change-log entry per row, exactly as insertRecord would append them.
 * Rows must carry every column; they are stored (and logged) as given.
 */
export async function insertRecords<T extends RecordTable>(trx: Executor, table: T, rows: Insertable<DB[T]>[]): Promise<void> {
  if (rows.length === 0) return;
  const db = trx as Kysely<any>;
  // Both dialects bind at most ~32k parameters per statement; stay well below.
  const perChunk = (cols: number) => Math.max(1, Math.min(1000, Math.floor(30_000 / cols)));
  const size = perChunk(Object.keys(rows[0] as object).length);
  for (let i = 0; i < rows.length; i += size) await db.insertInto(table).values(rows.slice(i, i + size) as any[]).execute();
  // One UPDATE reserves a block of change-log positions for the whole batch.
  const { origin, seq } = await (trx as Kysely<DB>)
    .updateTable('node_state')
    .set((eb) => ({ seq: eb('seq', '+', rows.length) }))
    .where('id', '=', 1)
    .returning(['origin', 'seq'])
    .executeTakeFirstOrThrow();
  const first = Number(seq) - rows.length + 1;
  const created = Date.now();
  const log = rows.map((row: any, i) => ({
    seq: first + i,
    op_id: newId(PREFIXES.change),
    origin,
    origin_seq: first + i,
    restaurant_id: table === 'restaurants' ? row.id : (row.restaurant_id ?? null),
    table_name: table,
    row_id: row.id as string,
    op: 'insert' as const,
    data: JSON.stringify(row),
    created,
  }));
  const logChunk = perChunk(10);
  for (let i = 0; i < log.length; i += logChunk) await (trx as Kysely<DB>).insertInto('change_log').values(log.slice(i, i + logChunk)).execute();
}
