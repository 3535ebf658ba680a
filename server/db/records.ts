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
