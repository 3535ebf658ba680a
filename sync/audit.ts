import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Kysely } from 'kysely';
import type { Executor } from '../server/db/records.ts';
import { sqliteFileOf } from '../server/db/statement-shapes.ts';
import { auditOnThread, type AuditPause } from './audit-thread.ts';
import { MERGE_RULES, SYNCED_TABLES } from './merge-rules.ts';
import { credentialsOf } from './write-rules.ts';

/**
 * The convergence audit: each side hashes its rows of a restaurant per table, in 32 buckets
 * by the last character of the id (random in a ULID). Equal buckets are equal; only the rows
 * of differing buckets are fetched and compared one by one.
 */
export interface SideSummary {
  tables: Record<string, { rows: number; buckets: Record<string, string> }>;
  /** rows of the buckets asked for in detail, by table and id */
  rows?: Record<string, Record<string, Record<string, unknown>>>;
}

const bucketOf = (id: string) => id.slice(-1).toUpperCase();

/** Per table, the columns left out of the audit (made once: every row of a venue is hashed). */
const skipped = new Map<string, Set<string>>();

/** The columns a table's rows are hashed without. */
function skippedOf(table: string): Set<string> {
  let skip = skipped.get(table);
  if (!skip) skipped.set(table, (skip = new Set([...(MERGE_RULES[table]?.local ?? []), ...credentialsOf(table)])));
  return skip;
}

/**
 * A row as both sides must agree on it, keys sorted: local bookkeeping columns left out, and
 * credentials, each node's own once the row exists (sync/write-rules.ts).
 */
export function canonical(table: string, row: Record<string, unknown>): string {
  const skip = skippedOf(table);
  const keys = Object.keys(row).filter((k) => !skip.has(k)).sort();
  return JSON.stringify(keys.map((k) => [k, row[k] === undefined ? null : row[k]]));
}

export const rowHash = (table: string, row: Record<string, unknown>) => createHash('sha256').update(canonical(table, row)).digest('hex').slice(0, 16);

/**
 * Hashing time between two turns of the event loop. Every query of a push or pull the cloud
 * serves meanwhile resumes only at a turn: with a turn every 500 rows (100–700 ms of hashing
 * on a loaded box), a push of 20 round trips waited 3–5 s behind one audit. A few ms a slice
 * keeps each round trip's wait that short.
 */
const SLICE_MS = 4;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

async function rowsOf(db: Executor, table: string, restaurantId: string): Promise<Record<string, unknown>[]> {
  const q = (db as Kysely<any>).selectFrom(table).selectAll();
  return (table === 'restaurants' ? q.where('id', '=', restaurantId) : q.where('restaurant_id', '=', restaurantId)).orderBy('id').execute();
}

function holdHere(pause: AuditPause): void {
  Atomics.store(pause.flags, 0, 1);
  const until = Date.now() + 5000;
  while (Atomics.load(pause.flags, 1) === 0 && Date.now() < until) Atomics.wait(pause.flags, 1, 0, 100);
}

export interface AuditSideOptions {
  /** tests: hold the audit mid-way (on its thread) */
  pause?: AuditPause;
  /** read and hash on this thread even where a thread of its own could (tests compare the two) */
  inProcess?: boolean;
}

/**
 * One side's summary: per table, its row count and a hash per bucket. With `detail` (buckets
 * per table), only those tables are read, and the rows of those buckets come back too.
 * The hub's SQLite file is read on a thread of its own (sync/audit-thread.ts): its reads are
 * synchronous and would hold the event loop that serves pushes, pulls and orders. PostgreSQL
 * reads do not block; there the hashing lets the event loop turn every SLICE_MS.
 */
export async function auditSide(db: Executor, restaurantId: string, detail?: Record<string, string[]>, opts: AuditSideOptions = {}): Promise<SideSummary> {
  const sqlite = opts.inProcess ? undefined : sqliteFileOf(db);
  if (sqlite) {
    const tables = SYNCED_TABLES.map((table) => ({ table, skip: [...skippedOf(table)] }));
    try {
      return await auditOnThread<SideSummary>({ ...sqlite, restaurantId, tables, detail, pause: opts.pause });
    } catch (err) {
      // a runtime whose worker cannot open the driver (a packaged app's archive, say): the audit
      // still runs, here on the serving thread as before, rather than not at all
      process.emitWarning(`the sync audit read on the serving thread: ${(err as Error).message}`);
    }
  }
  const out: SideSummary = { tables: {}, rows: detail ? {} : undefined };
  let hashed = 0;
  for (const table of SYNCED_TABLES) {
    if (detail && !detail[table]?.length) continue;
    const rows = await rowsOf(db, table, restaurantId);
    let sliceStart = performance.now();
    const hashes = new Map<string, ReturnType<typeof createHash>>();
    const want = new Set(detail?.[table] ?? []);
    for (let i = 0; i < rows.length; i++) {
      // an audit hashes every row of a venue (a hundred thousand after a busy week) beside live
      // sync, which must not wait for it: the event loop turns between slices
      if (performance.now() - sliceStart > SLICE_MS) {
        await nextTurn();
        sliceStart = performance.now();
      }
      // held here, the audit holds this thread, as its synchronous SQLite reads would (bounded)
      if (opts.pause && ++hashed === opts.pause.afterRows) holdHere(opts.pause);
      const r = rows[i];
      const id = String(r.id);
      const b = bucketOf(id);
      if (!hashes.has(b)) hashes.set(b, createHash('sha256'));
      hashes.get(b)!.update(`${id}:${rowHash(table, r)}\n`);
      if (want.has(b)) (out.rows![table] ??= {})[id] = r;
    }
    await nextTurn();
    out.tables[table] = { rows: rows.length, buckets: Object.fromEntries([...hashes].map(([b, h]) => [b, h.digest('hex').slice(0, 16)])) };
  }
  return out;
}

export interface AuditReport {
  in_sync: boolean;
  tables: { table: string; rows: number; cloud_rows: number; in_sync: boolean }[];
  differences: { table: string; id: string; hub: Record<string, unknown> | null; cloud: Record<string, unknown> | null }[];
}

/** Compares this side with the other's summary, asking it for the rows of differing buckets. */
export async function compareSides(
  db: Executor,
  restaurantId: string,
  fetchOther: (detail?: Record<string, string[]>) => Promise<SideSummary>,
  maxDifferences = 100,
): Promise<AuditReport> {
  const mine = await auditSide(db, restaurantId);
  const theirs = await fetchOther();
  const detail: Record<string, string[]> = {};
  for (const table of SYNCED_TABLES) {
    const a = mine.tables[table]?.buckets ?? {};
    const b = theirs.tables[table]?.buckets ?? {};
    const differ = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => a[k] !== b[k]);
    if (differ.length) detail[table] = differ;
  }
  const differences: AuditReport['differences'] = [];
  if (Object.keys(detail).length) {
    const [mineRows, theirRows] = [(await auditSide(db, restaurantId, detail)).rows ?? {}, (await fetchOther(detail)).rows ?? {}];
    for (const table of Object.keys(detail)) {
      const a = mineRows[table] ?? {};
      const b = theirRows[table] ?? {};
      let sliceStart = performance.now();
      for (const id of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
        // under live traffic most buckets of the busy tables differ (rows in flight), so this
        // hashes tens of thousands of rows on the serving thread: in slices, like auditSide
        if (performance.now() - sliceStart > SLICE_MS) {
          await nextTurn();
          sliceStart = performance.now();
        }
        const ha = a[id] ? rowHash(table, a[id]) : null;
        const hb = b[id] ? rowHash(table, b[id]) : null;
        if (ha !== hb && differences.length < maxDifferences) differences.push({ table, id, hub: a[id] ?? null, cloud: b[id] ?? null });
      }
    }
  }
  const tables = SYNCED_TABLES.map((table) => ({
    table,
    rows: mine.tables[table]?.rows ?? 0,
    cloud_rows: theirs.tables[table]?.rows ?? 0,
    in_sync: !detail[table],
  }));
  return { in_sync: tables.every((t) => t.in_sync), tables, differences };
}
