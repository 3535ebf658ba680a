import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Executor } from '../server/db/records.ts';
import type { ChangeRow } from '../server/db/tables/change-log.table.ts';
import { MAX_BATCH_BYTES, MAX_BATCH_ENTRIES, type WireChange } from './protocol.ts';

const isPostgres = (db: Executor) => (db as Kysely<any>).getExecutor().adapter instanceof PostgresAdapter;

export function toWire(e: Pick<ChangeRow, 'op_id' | 'origin' | 'origin_seq' | 'table_name' | 'row_id' | 'op' | 'data' | 'fields' | 'hlc'>): WireChange {
  return {
    op_id: e.op_id,
    origin: e.origin,
    origin_seq: Number(e.origin_seq),
    table: e.table_name,
    row_id: e.row_id,
    op: e.op,
    data: JSON.parse(e.data),
    fields: e.fields ? JSON.parse(e.fields) : null,
    hlc: e.hlc,
  };
}

export interface Page {
  changes: WireChange[];
  /** the last log position read: the reader's next `after`, whether or not it was sent */
  last: number;
  /** more entries wait after `last` */
  more: boolean;
  /** the op id of the entry at `last`, when the page ends on one it carries */
  lastOpId?: string;
}

/**
 * One bounded page of a restaurant's change log after a position, in log order. `origin`
 * keeps only that node's own changes (what a hub pushes); `notOrigin` leaves one node's out
 * (what a hub pulls: never its own changes back).
 */
export async function readLog(
  db: Executor,
  opts: { restaurantId: string; after: number; origin?: string; notOrigin?: string; limit?: number },
): Promise<Page> {
  const limit = Math.min(opts.limit ?? MAX_BATCH_ENTRIES, MAX_BATCH_ENTRIES);
  // Leaving one node's entries out is done by the database: a hub pulling after a long push
  // would otherwise read back (and skip) every entry it just sent, a page at a time. The
  // page still ends at the top read first, so the reader moves past the entries left out;
  // a restaurant's seqs are taken and committed in order (db/log-positions.ts), so none of
  // its entries at or below it is late. (Across restaurants they are not: read one only.)
  if (opts.notOrigin && isPostgres(db)) return readPulledPage(db, { ...opts, notOrigin: opts.notOrigin }, limit);
  const top = opts.notOrigin
    ? Number(
        (await db.selectFrom('change_log').select((eb) => eb.fn.max('seq').as('top')).where('restaurant_id', '=', opts.restaurantId).executeTakeFirst())?.top ??
          opts.after,
      )
    : null;
  let q = db
    .selectFrom('change_log')
    .select(['seq', 'op_id', 'origin', 'origin_seq', 'table_name', 'row_id', 'op', 'data', 'fields', 'hlc'])
    .where('restaurant_id', '=', opts.restaurantId)
    .where('seq', '>', opts.after)
    .limit(limit + 1);
  // A node's own entries have origin_seq = seq: read in that order, they come off the
  // (origin, origin_seq) unique index, the log's only index by origin.
  q = opts.origin ? q.where('origin', '=', opts.origin).where('origin_seq', '>', opts.after).orderBy('origin_seq') : q.orderBy('seq');
  if (opts.notOrigin) q = q.where('origin', '!=', opts.notOrigin).where('seq', '<=', top!);
  return toPage(db, await q.execute(), opts.after, limit, top, undefined);
}

type LogRow = Pick<ChangeRow, 'seq' | 'op_id' | 'origin' | 'origin_seq' | 'table_name' | 'row_id' | 'op' | 'data' | 'fields' | 'hlc'>;

/**
 * readLog's pull on PostgreSQL in one statement: the top, the compacted position and the page
 * (three round trips before, on every long poll's read). One statement also reads all three
 * in one snapshot.
 */
async function readPulledPage(db: Executor, opts: { restaurantId: string; after: number; notOrigin: string }, limit: number): Promise<Page> {
  const rows = (
    await sql<LogRow & { top: number | null; compacted: number | null }>`
      with t as (
        select (select max(seq) from change_log where restaurant_id = ${opts.restaurantId}) as top,
               (select compacted_through from node_state where id = 1) as compacted
      )
      select t.top, t.compacted, c.* from t left join lateral (
        select seq, op_id, origin, origin_seq, table_name, row_id, op, data, fields, hlc from change_log
        where restaurant_id = ${opts.restaurantId} and seq > ${opts.after} and origin <> ${opts.notOrigin} and seq <= t.top
        order by seq limit ${limit + 1}
      ) c on true
      order by c.seq`.execute(db)
  ).rows;
  const head = rows[0]!;
  const entries = head.seq === null ? [] : rows;
  return toPage(db, entries, opts.after, limit, Number(head.top ?? opts.after), Number(head.compacted ?? 0));
}

async function toPage(db: Executor, rows: LogRow[], after: number, limit: number, top: number | null, compacted: number | undefined): Promise<Page> {
  const changes: WireChange[] = [];
  const seqs: number[] = [];
  let last = after;
  let bytes = 0;
  let more = rows.length > limit;
  for (const r of rows.slice(0, limit)) {
    bytes += r.data.length + 200;
    // a page always moves (one entry at least), else stays under the byte bound
    if (changes.length > 0 && bytes > MAX_BATCH_BYTES / 2) {
      more = true;
      break;
    }
    last = Number(r.seq);
    changes.push(toWire(r));
    seqs.push(last);
  }
  await withCompactedClocks(db, changes, seqs, compacted);
  const lastOpId = changes.length ? changes[changes.length - 1]!.op_id : undefined;
  // every entry up to the top was read or left out: the next page starts after it
  if (top !== null && !more && top > last) return { changes, last: top, more };
  return { changes, last, more, lastOpId };
}

/** Entries at or below the compacted position carry what compaction kept of their row's clocks. */
async function withCompactedClocks(db: Executor, changes: WireChange[], seqs: number[], compacted: number | undefined): Promise<void> {
  if (changes.length === 0) return;
  const through = compacted ?? Number((await db.selectFrom('node_state').select('compacted_through').where('id', '=', 1).executeTakeFirst())?.compacted_through ?? 0);
  const byTable = new Map<string, WireChange[]>();
  changes.forEach((c, i) => {
    if (seqs[i] > through) return;
    byTable.set(c.table, [...(byTable.get(c.table) ?? []), c]);
  });
  for (const [table, list] of byTable) {
    for (let i = 0; i < list.length; i += 500) {
      const chunk = list.slice(i, i + 500);
      const kept = await db.selectFrom('sync_row_clocks').select(['row_id', 'clocks']).where('table_name', '=', table).where('row_id', 'in', chunk.map((c) => c.row_id)).execute();
      const of = new Map(kept.map((k) => [k.row_id, JSON.parse(k.clocks) as Record<string, string>]));
      for (const c of chunk) {
        const clocks = of.get(c.row_id);
        if (clocks && Object.keys(clocks).length) c.clocks = clocks;
      }
    }
  }
}

/** How many entries of a restaurant's log follow a position (of one node, or of all but one). */
export async function countLog(db: Executor, opts: { restaurantId: string; after: number; origin?: string; notOrigin?: string }): Promise<number> {
  let q = db
    .selectFrom('change_log')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('restaurant_id', '=', opts.restaurantId)
    .where('seq', '>', opts.after);
  // a node's own entries: by the (origin, origin_seq) index, as readLog reads them
  if (opts.origin) q = q.where('origin', '=', opts.origin).where('origin_seq', '>', opts.after);
  if (opts.notOrigin) q = q.where('origin', '!=', opts.notOrigin);
  return Number((await q.executeTakeFirst())?.n ?? 0);
}
