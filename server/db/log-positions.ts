import { type Kysely, sql } from 'kysely';
import type { Executor } from './executor.ts';
import { locksRows } from './row-locks.ts';
import type { DB } from './schema.ts';
import { runShape } from './statement-shapes.ts';

/**
 * Where a change-log entry goes and which stamps it may take, without one lock for the node.
 *
 * Every write of a restaurant's records takes that restaurant's `log_clocks` row lock (SELECT
 * … FOR UPDATE, held to commit) and reads its last stamp under it; then it takes log positions.
 * On PostgreSQL the positions come from a sequence, so two restaurants' writes never wait on
 * each other. That makes `seq` increase in commit order *within a restaurant* (the next
 * writer of that restaurant takes its numbers only once the lock is free, i.e. after the
 * last one committed) but not across restaurants: a unit of restaurant A may take 10, one of
 * B take 11 and commit first. Every reader that follows the log by `seq > cursor` therefore
 * keeps its cursor per restaurant (pull, the live feed, compaction, versions, repair all
 * read one restaurant's entries); a single cursor over all restaurants would skip A's 10.
 *
 * The hub's SQLite has one writer at a time: it keeps counting in node_state (gap-free), and
 * takes the same per-restaurant rows for its stamps so both dialects run one code path.
 */

/** The scope of an entry's lock and stamp: its restaurant, '' for an entry of none. */
export const scopeOf = (restaurantId: string | null | undefined): string => restaurantId ?? '';

/**
 * Locks the scope's row until the transaction ends (made on its first write) and returns the
 * last stamp persisted for it. Units that lock several scopes take them in sorted order.
 * The row almost always exists: it is locked by reading it (FOR UPDATE on PostgreSQL; the
 * hub's SQLite has one writer), which writes nothing. Only a scope's first write makes it,
 * with an upsert that takes the lock just the same when another unit made it meanwhile.
 */
export async function lockScope(trx: Executor, scope: string): Promise<string | null> {
  const locking = locksRows(trx);
  const stamp = held.get(trx)?.stamps.get(scope);
  if (stamp !== undefined) return stamp;
  const found = await runShape(
    trx,
    locking ? 'log_clocks+lock' : 'log_clocks+read',
    () => {
      const q = (trx as Kysely<DB>).selectFrom('log_clocks').select('hlc').where('restaurant_id', '=', scope);
      return locking ? q.forUpdate() : q;
    },
    [scope],
  );
  if (found.rows.length > 0) return found.rows[0].hlc ?? null;
  const made = await runShape(
    trx,
    'log_clocks+make',
    () =>
      (trx as Kysely<DB>)
        .insertInto('log_clocks')
        .values({ restaurant_id: scope, hlc: null })
        .onConflict((oc) => oc.column('restaurant_id').doUpdateSet({ hlc: (eb) => eb.ref('log_clocks.hlc') }))
        .returning('hlc'),
    [scope, null],
  );
  return made.rows[0]?.hlc ?? null;
}

/** Persists the scope's last stamp (under the lock lockScope took). */
export async function saveStamp(trx: Executor, scope: string, hlc: string): Promise<void> {
  const h = held.get(trx);
  if (h) {
    h.stamps.set(scope, hlc);
    h.unsaved.add(scope);
    return;
  }
  await writeStamp(trx, scope, hlc);
}

async function writeStamp(trx: Executor, scope: string, hlc: string): Promise<void> {
  await runShape(trx, 'log_clocks+hlc', () => (trx as Kysely<DB>).updateTable('log_clocks').set({ hlc }).where('restaurant_id', '=', scope), [hlc, scope]);
}

/** `n` new log positions, ascending, and the node's identity; call after lockScope. */
export async function takePositions(trx: Executor, n: number): Promise<{ origin: string; seqs: number[] }> {
  if (locksRows(trx)) {
    // The identity is read after the scope locks: a new one (sync/epoch.ts) takes the whole
    // table's lock first, so a unit sees either the old identity and commits before the
    // change rewrites it, or the new one.
    const res = await sql<{ origin: string; seq: string }>`select (select origin from node_state where id = 1) as origin, nextval('change_log_seq') as seq from generate_series(1, ${n})`.execute(trx);
    const seqs = res.rows.map((r) => Number(r.seq)).sort((a, b) => a - b);
    return { origin: res.rows[0].origin, seqs };
  }
  const h = held.get(trx);
  if (h?.origin !== undefined) {
    const first = h.seq + 1;
    h.seq += n;
    return { origin: h.origin, seqs: Array.from({ length: n }, (_, i) => first + i) };
  }
  const bumped = await runShape(
    trx,
    'node_state+seq',
    () => (trx as Kysely<DB>).updateTable('node_state').set((eb) => ({ seq: eb('seq', '+', n) })).where('id', '=', 1).returning(['origin', 'seq']),
    [n, 1],
  );
  const { origin, seq } = bumped.rows[0];
  if (h) Object.assign(h, { origin, seq: Number(seq), saved: Number(seq) });
  const first = Number(seq) - n + 1;
  return { origin, seqs: Array.from({ length: n }, (_, i) => first + i) };
}

/**
 * SQLite, a batch of units in one transaction (group commit): the node's count and each
 * scope's last stamp are kept in memory from the batch's first write on, its units take
 * their positions and stamps from there, and settlePositions writes both once, just before
 * the batch commits: three statements a batch instead of three a unit. Nothing reads them
 * from the database inside the batch (readers of the log head look at what is committed),
 * the connection is the batch's alone until it commits, and a unit rolled back to its
 * savepoint gives its positions back (restorePositions), so the count stays gap-free.
 */
interface Held {
  /** undefined until the batch's first positions were taken (from the database) */
  origin?: string;
  seq: number;
  /** the count as node_state holds it */
  saved: number;
  stamps: Map<string, string>;
  unsaved: Set<string>;
}

const held = new WeakMap<object, Held>();

/** From now until settlePositions, `trx` keeps its positions and stamps in memory (SQLite only). */
export function holdPositions(trx: Executor): void {
  if (!locksRows(trx)) held.set(trx, { seq: 0, saved: 0, stamps: new Map(), unsaved: new Set() });
}

/** Writes what `trx` kept since holdPositions: call it before the transaction commits. */
export async function settlePositions(trx: Executor): Promise<void> {
  const h = held.get(trx);
  if (!h) return;
  held.delete(trx);
  if (h.origin !== undefined && h.seq !== h.saved) {
    await runShape(trx, 'node_state+set', () => (trx as Kysely<DB>).updateTable('node_state').set({ seq: h.seq }).where('id', '=', 1), [h.seq, 1]);
  }
  for (const scope of [...h.unsaved].sort()) await writeStamp(trx, scope, h.stamps.get(scope)!);
}

/** Where a held transaction's positions and stamps stand, to give back what a rolled-back part took. */
export type PositionsMark = { seq: number; stamps: Map<string, string>; unsaved: Set<string> } | undefined;

export function positionsMark(trx: Executor): PositionsMark {
  const h = held.get(trx);
  return h?.origin === undefined ? undefined : { seq: h.seq, stamps: new Map(h.stamps), unsaved: new Set(h.unsaved) };
}

/**
 * The part of the transaction after `mark` was rolled back: its positions are free again, and
 * its stamps are forgotten (the rows it stamped are gone). Before any positions were taken
 * (no mark), the first ones were taken in the rolled-back part, so the count is read again.
 */
export function restorePositions(trx: Executor, mark: PositionsMark): void {
  const h = held.get(trx);
  if (!h) return;
  if (mark) Object.assign(h, mark);
  else held.set(trx, { seq: 0, saved: 0, stamps: new Map(), unsaved: new Set() });
}

/** Keeps every writer out until the transaction ends (a new log identity: sync/epoch.ts). */
export async function lockAllScopes(trx: Executor): Promise<void> {
  if (locksRows(trx)) await sql`lock table log_clocks in exclusive mode`.execute(trx);
}

/** PostgreSQL: the sequence's last position handed out, 0 before the first. */
const SEQUENCE_HEAD = sql`(select case when is_called then last_value else 0 end from change_log_seq)`;

/** The highest log position handed out so far (some may belong to units still open). */
export async function logHead(db: Executor): Promise<number> {
  if (locksRows(db)) {
    const res = await sql<{ head: string }>`select ${SEQUENCE_HEAD} as head`.execute(db);
    return Number(res.rows[0]?.head ?? 0);
  }
  const row = await db.selectFrom('node_state').select('seq').where('id', '=', 1).executeTakeFirst();
  return Number(row?.seq ?? 0);
}

/**
 * The node's log identity and its log head in one read (sync answers both on every push and
 * pull): the head as logHead gives it, the identity as node_state holds it.
 */
export async function identityAndHead(db: Executor): Promise<{ origin: string; head: number }> {
  const node = identityAndHeadColumns(db);
  const row = await (db as Kysely<DB>).selectNoFrom([node.origin, node.head]).executeTakeFirstOrThrow();
  if (row.node_origin === null) throw new Error('This database has no node identity yet (node_state is empty).');
  return { origin: row.node_origin, head: Number(row.node_head ?? 0) };
}

/**
 * identityAndHead as two columns to add to another read (a sync pull reads them with the
 * hub's credential, one round trip for both).
 */
export function identityAndHeadColumns(db: Executor) {
  return {
    origin: sql<string>`(select origin from node_state where id = 1)`.as('node_origin'),
    head: (locksRows(db) ? SEQUENCE_HEAD : sql<number | string | null>`(select seq from node_state where id = 1)`).as('node_head'),
  };
}

/**
 * At start (PostgreSQL): the sequence moves past every position the log holds. A database
 * brought back by copying its tables (rather than pg_dump, which carries the sequence), or
 * a replica promoted after logical replication (which does not), would otherwise hand out
 * positions it already holds, and every write would be refused.
 */
export async function catchUpPositions(db: Executor): Promise<void> {
  if (!locksRows(db)) return;
  await sql`select setval('change_log_seq', m) from (select max(seq) as m from change_log) s
    where m > (select case when is_called then last_value else 0 end from change_log_seq)`.execute(db);
}
