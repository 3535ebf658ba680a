import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Kysely } from 'kysely';
import type { Executor } from '../server/db/records.ts';
import { sqliteFileOf } from '../server/db/statement-shapes.ts';
import { auditOnThread, type AuditPause } from './audit-thread.ts';
import { MERGE_RULES, SYNCED_TABLES } from './merge-rules.ts';
import { MAX_AUDIT_ROWS } from './protocol.ts';
import { credentialsOf } from './write-rules.ts';
import { monotonicMs } from '../server/clock.ts';

/**
 * The convergence audit: each side hashes its rows of a restaurant per table, in 32 buckets
 * by the last character of the id (random in a ULID). Equal buckets are equal; of differing
 * buckets each side lists its per-row hashes, and only the rows whose hashes differ are
 * fetched whole.
 */
export interface SideSummary {
  tables: Record<string, { rows: number; buckets: Record<string, string> }>;
  /**
   * Whole rows, by table and id: of the buckets asked for in detail when the caller did not ask
   * for hashes (a hub from before per-row hashes), or of the ids asked for.
   */
  rows?: Record<string, Record<string, Record<string, unknown>>>;
  /** per-row hashes (id → rowHash) of the buckets asked for in detail, by table */
  hashes?: Record<string, Record<string, string>>;
}

/**
 * What one audit request asks of a side: nothing (the bucket summary), the per-row hashes of
 * some buckets (`detail` with `hashes`), or some rows whole (`ids`). A side from before per-row
 * hashes ignores `hashes` and answers `detail` with the buckets' whole rows.
 */
export interface AuditAsk {
  detail?: Record<string, string[]>;
  hashes?: true;
  ids?: Record<string, string[]>;
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

/** A table's rows of one restaurant (the restaurants table: its own row). */
function venueRows(db: Executor, table: string, restaurantId: string) {
  const q = (db as Kysely<any>).selectFrom(table).selectAll();
  return table === 'restaurants' ? q.where('id', '=', restaurantId) : q.where('restaurant_id', '=', restaurantId);
}

async function rowsOf(db: Executor, table: string, restaurantId: string): Promise<Record<string, unknown>[]> {
  return venueRows(db, table, restaurantId).orderBy('id').execute();
}

function holdHere(pause: AuditPause): void {
  Atomics.store(pause.flags, 0, 1);
  const until = monotonicMs() + 5000;
  while (Atomics.load(pause.flags, 1) === 0 && monotonicMs() < until) Atomics.wait(pause.flags, 1, 0, 100);
}

export interface AuditSideOptions {
  /** tests: hold the audit mid-way (on its thread) */
  pause?: AuditPause;
  /** read and hash on this thread even where a thread of its own could (tests compare the two) */
  inProcess?: boolean;
  /** with `detail`: answer per-row hashes of those buckets rather than their rows */
  hashes?: boolean;
}

/**
 * One side's summary: per table, its row count and a hash per bucket. With `detail` (buckets
 * per table), only those tables are read, and the per-row hashes (`hashes`) or else the rows
 * of those buckets come back too.
 * The hub's SQLite file is read on a thread of its own (sync/audit-thread.ts): its reads are
 * synchronous and would hold the event loop that serves pushes, pulls and orders. PostgreSQL
 * reads do not block; there the hashing lets the event loop turn every SLICE_MS.
 */
export async function auditSide(db: Executor, restaurantId: string, detail?: Record<string, string[]>, opts: AuditSideOptions = {}): Promise<SideSummary> {
  const sqlite = opts.inProcess ? undefined : sqliteFileOf(db);
  if (sqlite) {
    const tables = SYNCED_TABLES.map((table) => ({ table, skip: [...skippedOf(table)] }));
    try {
      return await auditOnThread<SideSummary>({ ...sqlite, restaurantId, tables, detail, hashes: opts.hashes === true, pause: opts.pause });
    } catch (err) {
      // a runtime whose worker cannot open the driver (a packaged app's archive, say): the audit
      // still runs, here on the serving thread as before, rather than not at all
      process.emitWarning(`the sync audit read on the serving thread: ${(err as Error).message}`);
    }
  }
  const byRow = !!detail && opts.hashes === true;
  const out: SideSummary = { tables: {}, ...(detail ? (byRow ? { hashes: {} } : { rows: {} }) : {}) };
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
      const h = rowHash(table, r);
      if (!hashes.has(b)) hashes.set(b, createHash('sha256'));
      hashes.get(b)!.update(`${id}:${h}\n`);
      if (want.has(b)) {
        if (byRow) (out.hashes![table] ??= {})[id] = h;
        else (out.rows![table] ??= {})[id] = r;
      }
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
  /** rows whose hashes differed but that were the same when fetched: changes crossing meanwhile */
  in_flight: number;
  /** more rows differed than were fetched (the cap) */
  truncated: boolean;
}

/** The rows of `ids` (per table) this side holds for the restaurant, by table and id. */
export async function auditRows(db: Executor, restaurantId: string, ids: Record<string, string[]>): Promise<NonNullable<SideSummary['rows']>> {
  const out: NonNullable<SideSummary['rows']> = {};
  let left = MAX_AUDIT_ROWS;
  for (const table of SYNCED_TABLES) {
    const want = (ids[table] ?? []).slice(0, left);
    if (!want.length) continue;
    left -= want.length;
    const rows = await venueRows(db, table, restaurantId).where('id', 'in', want).execute();
    for (const r of rows) (out[table] ??= {})[String(r.id)] = r;
  }
  return out;
}

/** Per-row hashes of whole rows (the second look's answer of a side from before per-row hashes). */
async function hashesOf(rows: NonNullable<SideSummary['rows']>): Promise<NonNullable<SideSummary['hashes']>> {
  const out: NonNullable<SideSummary['hashes']> = {};
  let sliceStart = performance.now();
  for (const [table, byId] of Object.entries(rows)) {
    const h: Record<string, string> = (out[table] = {});
    for (const [id, row] of Object.entries(byId)) {
      if (performance.now() - sliceStart > SLICE_MS) {
        await nextTurn();
        sliceStart = performance.now();
      }
      h[id] = rowHash(table, row);
    }
  }
  return out;
}

/**
 * The other side's rows of `ids`. Behind a balancer during a rolling restart, the look at the
 * hashes and this one may reach processes of two versions: one from before ignores `ids` and
 * answers a summary without rows; its rows of those ids' buckets serve then.
 */
async function rowsOfOther(fetchOther: (ask: AuditAsk) => Promise<SideSummary>, ids: Record<string, string[]>): Promise<NonNullable<SideSummary['rows']>> {
  const got = await fetchOther({ ids });
  if (got.rows) return got.rows;
  const detail = Object.fromEntries(Object.entries(ids).map(([table, list]) => [table, [...new Set(list.map(bucketOf))]]));
  return (await fetchOther({ detail })).rows ?? {};
}

/**
 * Compares this side with the other's, in three looks: the bucket summaries; the per-row hashes
 * of the buckets that differ; the whole rows of the ids whose hashes differ (at most
 * `maxDifferences`), for the report. Under live traffic nearly every bucket of the busy tables
 * differs (rows in flight), and the second look used to carry whole rows of all of them: the
 * cloud serialised tens of thousands of rows in one go (an event-loop stall of 1.9 s) and the
 * hub parsed them (0.5 s). A hash is 16 characters. Each side's looks are taken at once, to
 * keep the rows that change between the two sides' reads few.
 */
export async function compareSides(db: Executor, restaurantId: string, fetchOther: (ask: AuditAsk) => Promise<SideSummary>, maxDifferences = 100): Promise<AuditReport> {
  const [mine, theirs] = await Promise.all([auditSide(db, restaurantId), fetchOther({})]);
  const detail: Record<string, string[]> = {};
  for (const table of SYNCED_TABLES) {
    const a = mine.tables[table]?.buckets ?? {};
    const b = theirs.tables[table]?.buckets ?? {};
    const differ = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => a[k] !== b[k]);
    if (differ.length) detail[table] = differ;
  }
  const differences: AuditReport['differences'] = [];
  let inFlight = 0;
  let truncated = false;
  if (Object.keys(detail).length) {
    const [myLook, theirLook] = await Promise.all([auditSide(db, restaurantId, detail, { hashes: true }), fetchOther({ detail, hashes: true })]);
    const mineHashes = myLook.hashes ?? {};
    // a side from before per-row hashes ignores `hashes` and answers with the buckets' rows
    const theirRows = theirLook.hashes ? undefined : (theirLook.rows ?? {});
    const theirHashes = theirLook.hashes ?? (await hashesOf(theirRows!));
    // the first ids (in order) whose hashes differ; only those are sorted, not the tens of
    // thousands listed
    const ids: Record<string, string[]> = {};
    let left = Math.min(maxDifferences, MAX_AUDIT_ROWS);
    for (const table of Object.keys(detail)) {
      const a = mineHashes[table] ?? {};
      const b = theirHashes[table] ?? {};
      const differ = Object.keys(a).filter((id) => a[id] !== b[id]);
      for (const id of Object.keys(b)) if (!Object.hasOwn(a, id)) differ.push(id);
      if (!differ.length) continue;
      if (left <= 0) {
        truncated = true;
        break;
      }
      ids[table] = differ.sort().slice(0, left);
      left -= ids[table].length;
      if (differ.length > ids[table].length) truncated = true;
    }
    const n = Object.keys(ids).length;
    if (n) {
      const [hubRows, cloudRows] = await Promise.all([
        auditRows(db, restaurantId, ids),
        theirRows ? Promise.resolve(theirRows) : rowsOfOther(fetchOther, ids),
      ]);
      for (const [table, list] of Object.entries(ids)) {
        for (const id of list) {
          const a = hubRows[table]?.[id] ?? null;
          const b = cloudRows[table]?.[id] ?? null;
          // a row that came out the same on both sides between the looks was in flight
          if ((a && b && rowHash(table, a) === rowHash(table, b)) || (!a && !b)) {
            inFlight++;
            continue;
          }
          differences.push({ table, id, hub: a, cloud: b });
        }
      }
    }
  }
  const tables = SYNCED_TABLES.map((table) => ({
    table,
    rows: mine.tables[table]?.rows ?? 0,
    cloud_rows: theirs.tables[table]?.rows ?? 0,
    in_sync: !detail[table],
  }));
  return { in_sync: tables.every((t) => t.in_sync), tables, differences, in_flight: inFlight, truncated };
}
