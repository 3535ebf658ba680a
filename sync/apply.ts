import { sql, type Kysely } from 'kysely';
import {
  asRemoteChange,
  changesMark,
  deleteRecord,
  dropChangesSince,
  flushChanges,
  writeRecords,
  type RecordWrite,
  type Executor,
  type Provenance,
} from '../server/db/records.ts';
import { isUniqueViolation } from '../server/errors.ts';
import type { DB, RecordTable } from '../server/db/schema.ts';
import { ApiError } from '../server/errors.ts';
import { MERGE_RULES, isSyncedTable, rankOf, type SyncedTable, type TableRule } from './merge-rules.ts';
import { rowIdsIn } from './row-ids.ts';
import type { WireChange } from './protocol.ts';
import { afterApply } from './derived.ts';
import { nothingTouched, type Touched } from './touched.ts';
import type { Slots } from './table-behaviour.ts';
import { columnInfoOf, type ColumnInfo } from './columns.ts';
import { credentialsOf, WRITE_RULES } from './write-rules.ts';

export type { ApplyContext } from './apply-context.ts';
import type { ApplyContext } from './apply-context.ts';
import { locksRows } from '../server/db/row-locks.ts';

export interface ApplyResult {
  applied: number;
  /** already here, or lost to a newer local state */
  skipped: number;
}

/** What a node knows of one row: when each column was last set, and whether it was deleted. */
export interface RowClocks {
  /** the last change that set every column (an insert, a whole-row change) */
  all: string;
  fields: Map<string, string>;
  deleted: string | null;
}

const clockOf = (rc: RowClocks, f: string) => {
  const own = rc.fields.get(f) ?? LOW;
  return own > rc.all ? own : rc.all;
};

const noClocks = (): RowClocks => ({ all: LOW, fields: new Map(), deleted: null });

const LOW = '';

/** Final statuses a person chose (a cancel, a no-show, an expiry) that a merge may overrule. */
const OVERRULABLE = new Set(['cancelled', 'no_show', 'expired']);

/**
 * Applies other nodes' changes on `trx`, in the order given, through the same write path as
 * a local command (db/records.ts): the change log keeps each one under its origin's identity
 * and clock, so live screens, printers and webhooks follow it like a local change, and it is
 * never sent back. A change already here (its op id) is skipped, so a batch applied twice
 * changes nothing. Everything is checked before anything is written: a batch with a row of
 * another restaurant, an unknown table or column is refused whole.
 */
export async function applyChanges(trx: Executor, ctx: ApplyContext, batch: WireChange[] | CheckedChanges): Promise<ApplyResult> {
  const checked = batch instanceof CheckedChanges && batch.restaurantId === ctx.restaurantId;
  const changes = batch instanceof CheckedChanges ? batch.changes : batch;
  if (!checked) await validate(trx, ctx, changes);
  const fresh = ctx.repair ? changes : await notYetHere(trx, changes);
  if (fresh.length === 0) return { applied: 0, skipped: changes.length };
  // Fast and whole first. A change that breaks a unique rule of this database (two nodes
  // took the same number, the same guest's place) must not stop sync for good: the batch
  // is then applied one change at a time, and what cannot be applied is kept as a conflict.
  await flushChanges(trx);
  const mark = changesMark(trx);
  await sql`savepoint sync_batch`.execute(trx);
  try {
    const r = await applyFresh(trx, ctx, fresh, false);
    await sql`release sync_batch`.execute(trx);
    return { applied: r, skipped: changes.length - r };
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    await sql`rollback to sync_batch`.execute(trx);
    await sql`release sync_batch`.execute(trx);
    dropChangesSince(trx, mark);
    const r = await applyFresh(trx, ctx, fresh, true);
    return { applied: r, skipped: changes.length - r };
  }
}

async function applyFresh(trx: Executor, ctx: ApplyContext, fresh: WireChange[], careful: boolean): Promise<number> {

  const byTable = groupIds(fresh);
  const current = await loadRows(trx, byTable);
  const clocks = await loadClocks(trx, byTable);
  const touched: Touched = nothingTouched();

  let applied = 0;
  // New rows and patches are the bulk of a first link or a long outage: they are held until
  // a change that must see them stored (a delete, a number to make room for, a second patch
  // of one row) or the batch's end, and written many at a time (db/records.ts writeRecords),
  // the log keeping the batch's order.
  let run: RecordWrite[] | null = null;
  const patched = new Set<string>();
  const flushRun = async () => {
    if (!run) return;
    const writes = run;
    run = null;
    patched.clear();
    await writeRecords(trx, writes);
  };
  // the places new rows take that two nodes hand out apart (order numbers, line positions): each
  // table's own rule (MERGE_RULES slots), read once per batch
  const slots = new Map<string, Slots>();
  for (const [table, rule] of Object.entries(MERGE_RULES)) {
    if (rule.slots) slots.set(table, rule.slots({ trx, restaurantId: ctx.restaurantId, flush: flushRun, current, touched }));
  }
  for (const s of slots.values()) await s.load(fresh);

  for (const c of fresh) {
    if (careful) {
      await flushRun();
      await flushChanges(trx);
      const mark = changesMark(trx);
      await sql`savepoint sync_change`.execute(trx);
      try {
        applied += await applyOne(c);
        await flushRun();
        await sql`release sync_change`.execute(trx);
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        run = null;
        await sql`rollback to sync_change`.execute(trx);
        await sql`release sync_change`.execute(trx);
        dropChangesSince(trx, mark);
        touched.unapplied.push(c);
      }
      continue;
    }
    applied += await applyOne(c);
  }
  await flushRun();
  for (const s of slots.values()) await s.end?.();
  await afterApply(trx, ctx, touched);
  return applied;

  async function applyOne(c: WireChange): Promise<number> {
    const table = c.table as RecordTable;
    const key = `${c.table}:${c.row_id}`;
    const rule = MERGE_RULES[c.table] ?? {};
    const local = current.get(key);
    const rc = clocks.get(key) ?? noClocks();
    const from: Provenance = ctx.repair ? { hlc: c.hlc ?? LOW, fields: null } : { op_id: c.op_id, origin: c.origin, origin_seq: c.origin_seq, hlc: c.hlc ?? LOW, fields: null };
    rule.touched?.before?.(touched, c, local);

    if (rc.deleted !== null) return 0; // a tombstone wins over every edit
    if (c.op === 'delete') {
      await flushRun();
      if (local) await asRemoteChange(trx, from, () => deleteRecord(trx, table, ownKey(rule, c, ctx)));
      rc.deleted = c.hlc ?? LOW;
      clocks.set(key, rc);
      current.delete(key);
      return 1;
    }
    if (!local) {
      // new here (or its insert was compacted away on the sender): the row as the change left it
      const row = { ...c.data };
      await slots.get(c.table)?.onInsert(row);
      (run ??= []).push({ op: 'insert', table, row, from });
      current.set(key, row);
      if ((c.hlc ?? LOW) > rc.all) rc.all = c.hlc ?? LOW;
      clocks.set(key, rc);
      rule.touched?.after?.(touched, c, row, true);
      return 1;
    }
    const patch = merge(rule, local, rc, c, touched, keptHere(ctx, c.table, local));
    if (Object.keys(patch).length === 0) return 0;
    if (patched.has(key)) await flushRun();
    await slots.get(c.table)?.onPatch?.(local, patch);
    patched.add(key);
    (run ??= []).push({ op: 'update', table, key: ownKey(rule, c, ctx), patch, from: { ...from, fields: Object.keys(patch) } });
    // the row as the patch leaves it (what the UPDATE returns: no trigger moves a synced table's columns)
    const saved = { ...local, ...patch };
    current.set(key, saved);
    setAll(rc, Object.keys(patch), c.hlc ?? LOW);
    clocks.set(key, rc);
    rule.touched?.after?.(touched, c, saved as Record<string, unknown>, false, local);
    return 1;
  }
}

/**
 * The columns a remote change may set on a row this node has, by the rules of MERGE_RULES:
 * lifecycle by rank, soft deletes sticky, the rest last writer wins per column.
 */
function merge(rule: TableRule, local: Record<string, unknown>, rc: RowClocks, c: WireChange, touched: Touched, kept: Set<string>): Record<string, unknown> {
  const hlc = c.hlc ?? LOW;
  const localOnly = new Set(rule.local ?? []);
  // an entry that outlived a compaction claims every column, each by its own clock
  const asked = (c.clocks ? Object.keys(c.data) : (c.fields ?? Object.keys(c.data))).filter((f) => f !== 'id' && f in c.data && !localOnly.has(f) && !kept.has(f));
  const claimed = c.fields ? new Set(c.fields) : null;
  const clockIn = (f: string) => {
    if (!c.clocks) return hlc;
    const own = !claimed || claimed.has(f) ? hlc : LOW;
    return [own, c.clocks[f] ?? LOW, c.clocks['*'] ?? LOW].reduce((a, b) => (b > a ? b : a));
  };
  const patch: Record<string, unknown> = {};
  const decided = new Set<string>();

  const life = rule.lifecycle;
  // A check merged into another stays merged (cancelled, `merged_into`), on both sides, whatever
  // the other side did to it apart: its lines and money are the survivor's, and what the other
  // side aimed at it follows them (sync/merge-redirect.ts). A completion made apart used to
  // win by rank and erase the link to the survivor.
  const into = life?.mergedInto;
  if (life && into && (local[into] != null || (c.data[into] != null && (asked.includes(into) || asked.includes(life.column))))) {
    const theirs = c.data[into];
    const otherMerge = local[into] != null && theirs != null && theirs !== local[into] && asked.includes(into);
    // merged into one check here and into another there, while apart: the later merge stands on
    // both sides (its lines and money moved with the same clock), and the other is listed
    const laterThere = otherMerge && clockIn(into) > clockOf(rc, into);
    if (local[into] == null || laterThere) {
      patch[life.column] = c.data[life.column];
      for (const f of life.follows) if (f in c.data) patch[f] = c.data[f];
    } else if (theirs === local[into]) {
      // merged into the same check on both sides apart: one merge, its time and words the later
      // side's (the sync fuzzer, seed 485870: each side kept its own cancel time for ever)
      for (const f of life.follows) if (f in c.data && asked.includes(f) && clockIn(f) > clockOf(rc, f)) patch[f] = c.data[f];
    }
    if (otherMerge) {
      const [kept, overruled] = laterThere ? [theirs, local[into]] : [local[into], theirs];
      touched.overruled.push({ table: c.table, id: c.row_id, kept: `merged into ${kept}`, overruled: `merged into ${overruled}`, origin: c.origin });
    }
    decided.add(life.column);
    life.follows.forEach((f) => decided.add(f));
  } else if (life) {
    const mine = rankOf(life, local[life.column]);
    const theirs = rankOf(life, c.data[life.column]);
    const inChange = asked.includes(life.column);
    if (inChange && theirs !== mine) {
      const [winner, loser] = theirs > mine ? [c.data[life.column], local[life.column]] : [local[life.column], c.data[life.column]];
      if (theirs > mine) {
        patch[life.column] = c.data[life.column];
        for (const f of life.follows) if (f in c.data) patch[f] = c.data[f];
      }
      // a person's decision the other side's state overruled: listed on both nodes
      if (OVERRULABLE.has(String(loser))) touched.overruled.push({ table: c.table, id: c.row_id, kept: String(winner), overruled: String(loser), origin: c.origin });
    }
    decided.add(life.column);
    if (theirs !== mine) life.follows.forEach((f) => decided.add(f));
  }
  for (const f of rule.stickyOnce ?? []) {
    if (!asked.includes(f)) continue;
    decided.add(f);
    if (local[f] === null && c.data[f] !== null) patch[f] = c.data[f];
    // set on both sides apart (a line voided on each): the later setting stands on both (the sync
    // fuzzer, seed 642543: each side kept its own void time for ever)
    else if (local[f] !== null && c.data[f] !== null && clockIn(f) > clockOf(rc, f)) patch[f] = c.data[f];
  }
  for (const f of asked) {
    if (decided.has(f) || f in patch) continue;
    if (clockIn(f) > clockOf(rc, f)) patch[f] = c.data[f];
  }
  for (const f of Object.keys(patch)) if (same(patch[f], local[f])) delete patch[f];
  return patch;
}

/**
 * Columns a change may not set on a row this node has (WRITE_RULES): its restaurant never
 * moves; on the cloud, a credential the row already has (not null) stays the cloud's. The hub takes the
 * cloud's credentials: the cloud is where the restaurant is managed from afar (a password
 * reset there must reach the venue), and it already holds every row the hub has.
 */
function keptHere(ctx: ApplyContext, table: string, local: Record<string, unknown>): Set<string> {
  const kept = new Set(['restaurant_id']);
  if (ctx.role === 'cloud') for (const f of credentialsOf(table)) if (local[f] !== null && local[f] !== undefined) kept.add(f);
  return kept;
}

/** The column naming a row's restaurant (the restaurant itself: its id). */
const ownerOf = (table: string) => MERGE_RULES[table]?.owner ?? 'restaurant_id';

/** A row by id, and (but for a restaurant itself) its restaurant: a write never reaches past it. */
const ownKey = (rule: TableRule, c: WireChange, ctx: ApplyContext) => ((rule.owner ?? 'restaurant_id') === 'id' ? { id: c.row_id } : { id: c.row_id, restaurant_id: ctx.restaurantId });

const same = (a: unknown, b: unknown) => a === b || (a !== null && b !== null && typeof a === 'object' && JSON.stringify(a) === JSON.stringify(b));

function setAll(rc: RowClocks, fields: string[], hlc: string): void {
  for (const f of fields) if (hlc > (rc.fields.get(f) ?? LOW)) rc.fields.set(f, hlc);
}

/**
 * A batch already checked (tables, columns, whole rows, ownership) for one restaurant. The
 * cloud checks a push before it takes the hub's lock: the pushes of one hub are applied one
 * after another, and what does not depend on the one before need not wait for it. No row
 * changes restaurant, so the check holds once made (a row of another restaurant stored
 * meanwhile is the same race as within the transaction: its id's unique rule refuses it).
 */
export class CheckedChanges {
  private constructor(
    readonly restaurantId: string,
    readonly changes: WireChange[],
  ) {}

  static async of(db: Executor, ctx: ApplyContext, changes: WireChange[]): Promise<CheckedChanges> {
    await validate(db, ctx, changes);
    return new CheckedChanges(ctx.restaurantId, changes);
  }

  /** some of the changes: still checked */
  only(keep: (c: WireChange) => boolean): CheckedChanges {
    return new CheckedChanges(this.restaurantId, this.changes.filter(keep));
  }
}

async function validate(trx: Executor, ctx: ApplyContext, changes: WireChange[]): Promise<void> {
  for (const c of changes) {
    if (!isSyncedTable(c.table)) throw new ApiError('sync_batch_invalid', `The batch names a table sync does not carry: ${c.table}.`, 'table');
    const rule = MERGE_RULES[c.table] ?? {};
    const owner = c.data[ownerOf(c.table)];
    if (owner !== ctx.restaurantId) {
      throw new ApiError('sync_restaurant_mismatch', `The batch holds a row of another restaurant (${c.table} ${c.row_id}).`);
    }
    if (c.data.id !== c.row_id) throw new ApiError('sync_batch_invalid', `A change names row ${c.row_id} but carries another.`, 'row_id');
    // (a restaurant: no command removes one, and applied it would leave the venue's orders without it)
    if (rule.undeletable && c.op === 'delete') throw new ApiError('sync_batch_invalid', `A batch cannot remove ${rule.undeletable}.`, 'op');
    const cols = await columnInfoOf(trx, c.table);
    for (const k of Object.keys(c.data)) {
      if (!cols.has(k)) throw new ApiError('sync_batch_invalid', `Table ${c.table} has no column ${k}.`, 'data');
    }
    // a change carries the whole row as it left it, whatever columns it set
    if (Object.keys(c.data).length !== cols.size) throw new ApiError('sync_batch_invalid', `A change of ${c.table} must carry the whole row.`, 'data');
    // every value as its column takes it: refused here, named, rather than failing the
    // write (a 500 the hub would send again for ever) or stored as something else
    if (c.op !== 'delete') for (const [k, info] of cols) checkValue(c, k, info);
    await rule.check?.(trx, ctx, c);
  }
  await checkOwners(trx, ctx, changes);
}

/** A value of a change fits its column: not null where the column requires one, a number or a string as the column holds. */
function checkValue(c: WireChange, col: string, info: ColumnInfo): void {
  const v = c.data[col];
  const where = `change ${c.op_id} (${c.table} ${c.row_id})`;
  if (v === null || v === undefined) {
    if (!info.nullable) throw new ApiError('sync_batch_invalid', `In ${where}, ${col} is required but null.`, 'data');
    return;
  }
  const fits = info.kind === 'number' ? typeof v === 'number' && Number.isFinite(v) : typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
  if (!fits) throw new ApiError('sync_batch_invalid', `In ${where}, ${col} must be ${info.kind === 'number' ? 'a number' : 'text'}.`, 'data');
}

/**
 * Ownership (sync/write-rules.ts): what a change claims decides nothing. Every row a batch
 * names, and every row its references name, is looked up as this node has it stored (by id,
 * in its table); one of another restaurant refuses the whole batch. A row this node does not
 * have is new, and claimed for the link's restaurant above.
 */
async function checkOwners(trx: Executor, ctx: ApplyContext, changes: WireChange[]): Promise<void> {
  const named = new Map<string, Set<string>>();
  const name = (table: string, id: string) => {
    if (!named.has(table)) named.set(table, new Set());
    named.get(table)!.add(id);
  };
  for (const c of changes) {
    name(c.table, c.row_id);
    for (const [col, ref] of Object.entries(WRITE_RULES[c.table as keyof typeof WRITE_RULES].references ?? {})) {
      for (const id of idsIn(c, col, ref.many === true)) name(ref.table, id);
    }
    // every other value that names a row (by its id's shape, whatever its column is called:
    // `refunded_by`, `counted_by`, `resolved_by`, a conflict's `row_ids`) is checked the same way
    for (const [col, v] of Object.entries(c.data)) {
      if (col === 'id' || col === 'restaurant_id' || typeof v !== 'string') continue;
      for (const [table, id] of rowIdsIn(v)) name(table, id);
    }
  }
  // one statement for every table named (500 ids at most): only the rows of another
  // restaurant come back, so the answer is empty when the batch is clean
  for (const chunk of chunksOf(named)) {
    const parts = chunk.map(({ table, ids }) => {
      const owner = ownerOf(table);
      return (trx as Kysely<any>)
        .selectFrom(table)
        .select([sql<string>`cast(${table} as text)`.as('t'), 'id', `${owner} as owner`])
        .where('id', 'in', ids)
        .where((eb) => eb.or([eb(owner, '<>', ctx.restaurantId), eb(owner, 'is', null)]));
    });
    const theirs = (await unionAll(parts).execute())[0] as { t: string; id: string } | undefined;
    if (theirs) throw new ApiError('sync_restaurant_mismatch', `The batch names a row of another restaurant (${theirs.t} ${theirs.id}).`);
  }
}

/** One statement of several selects of the same columns (one per table of a chunk). */
const unionAll = <Q extends { unionAll(other: Q): Q }>(parts: Q[]): Q => parts.slice(1).reduce((q, p) => q.unionAll(p), parts[0]!);

/** Row ids by table, cut into statements of at most 500 ids in all. */
function chunksOf(byTable: Map<string, Iterable<string>>): { table: string; ids: string[] }[][] {
  const out: { table: string; ids: string[] }[][] = [];
  let current: { table: string; ids: string[] }[] = [];
  let n = 0;
  for (const [table, set] of byTable) {
    const all = [...set];
    for (let i = 0; i < all.length; ) {
      const take = all.slice(i, i + 500 - n);
      current.push({ table, ids: take });
      n += take.length;
      i += take.length;
      if (n >= 500) {
        out.push(current);
        current = [];
        n = 0;
      }
    }
  }
  if (current.length) out.push(current);
  return out;
}

/** The row ids a reference column of a change names (none when null). */
function idsIn(c: WireChange, col: string, many: boolean): string[] {
  const v = c.data[col];
  if (v === null || v === undefined) return [];
  if (!many) {
    if (typeof v !== 'string') throw new ApiError('sync_batch_invalid', `${c.table}.${col} must be a row id.`, 'data');
    return [v];
  }
  let list: unknown;
  try {
    list = typeof v === 'string' ? JSON.parse(v) : v;
  } catch {
    list = null;
  }
  if (!Array.isArray(list) || !list.every((x) => typeof x === 'string')) throw new ApiError('sync_batch_invalid', `${c.table}.${col} must be a list of row ids.`, 'data');
  return list as string[];
}

/** The changes this node has not yet applied (or made), by op id. */
async function notYetHere(trx: Executor, changes: WireChange[]): Promise<WireChange[]> {
  const seen = new Set<string>();
  for (let i = 0; i < changes.length; i += 500) {
    const ids = changes.slice(i, i + 500).map((c) => c.op_id);
    const rows = await trx.selectFrom('change_log').select('op_id').where('op_id', 'in', ids).execute();
    for (const r of rows) seen.add(r.op_id);
  }
  const out: WireChange[] = [];
  for (const c of changes) {
    if (seen.has(c.op_id)) continue;
    seen.add(c.op_id); // the same change twice in one batch
    out.push(c);
  }
  return out;
}

function groupIds(changes: WireChange[]): Map<string, string[]> {
  const m = new Map<string, Set<string>>();
  for (const c of changes) {
    if (!m.has(c.table)) m.set(c.table, new Set());
    m.get(c.table)!.add(c.row_id);
  }
  return new Map([...m].map(([t, s]) => [t, [...s]]));
}

async function loadRows(trx: Executor, byTable: Map<string, string[]>): Promise<Map<string, Record<string, unknown>>> {
  const out = new Map<string, Record<string, unknown>>();
  // On PostgreSQL a local command may change these rows while the batch is applied (the cloud
  // serves its API beside the pushes): each row is locked as it is read, so the merge decides on
  // the row as it stands, and the clocks read next include that command's change. Before, a merge
  // made on the cloud while a hub's cancel of the same check was applied lost its link (the sync
  // fuzzer, seed 38677). In id order, as commands lock two checks, so the two wait, not deadlock.
  const lock = locksRows(trx);
  // checks before their lines and money, as every command locks them (MERGE_RULES lockFirst)
  const first = (t: string) => Number(MERGE_RULES[t]?.lockFirst === true);
  for (const [table, ids] of [...byTable].sort(([a], [b]) => first(b) - first(a))) {
    for (let i = 0; i < ids.length; i += 500) {
      let q = (trx as Kysely<any>).selectFrom(table).selectAll().where('id', 'in', ids.slice(i, i + 500));
      if (lock) q = q.orderBy('id').forUpdate();
      const rows = await q.execute();
      for (const r of rows) out.set(`${table}:${r.id}`, r);
    }
  }
  return out;
}

/**
 * Per touched row, when this node last set each column: from its change-log history of the
 * row, and from what compaction kept of entries it removed (sync_row_clocks).
 */
export async function loadClocks(trx: Executor, byTable: Map<string, string[]>): Promise<Map<string, RowClocks>> {
  const out = new Map<string, RowClocks>();
  const get = (key: string) => {
    let rc = out.get(key);
    if (!rc) out.set(key, (rc = noClocks()));
    return rc;
  };
  // the history and the kept clocks of every table touched, 500 rows at a time, in one
  // statement each (a push of an order touches three tables: six round trips before)
  for (const chunk of chunksOf(byTable)) {
    const k = trx as Kysely<any>;
    // by table first: the log's row index leads with it
    const histories = chunk.map(({ table, ids }) =>
      k.selectFrom('change_log').select(['seq', 'table_name', 'row_id', 'op', 'hlc', 'fields']).where('table_name', '=', table).where('row_id', 'in', ids),
    );
    const history: { table_name: string; row_id: string; op: string; hlc: string | null; fields: string | null }[] = await unionAll(histories).orderBy('seq').execute();
    for (const h of history) {
      const rc = get(`${h.table_name}:${h.row_id}`);
      const hlc = h.hlc ?? LOW;
      if (h.op === 'delete') {
        rc.deleted = hlc;
        continue;
      }
      if (h.fields) setAll(rc, JSON.parse(h.fields) as string[], hlc);
      else if (hlc > rc.all) rc.all = hlc;
    }
    const keptOf = chunk.map(({ table, ids }) => k.selectFrom('sync_row_clocks').select(['table_name', 'row_id', 'clocks']).where('table_name', '=', table).where('row_id', 'in', ids));
    const kept: { table_name: string; row_id: string; clocks: string }[] = await unionAll(keptOf).execute();
    for (const kc of kept) {
      const rc = get(`${kc.table_name}:${kc.row_id}`);
      const clocks = JSON.parse(kc.clocks) as Record<string, string>;
      for (const [f, hlc] of Object.entries(clocks)) {
        if (f === '_deleted') rc.deleted = hlc;
        else if (f === '*') rc.all = hlc > rc.all ? hlc : rc.all;
        else setAll(rc, [f], hlc);
      }
    }
  }
  return out;
}

