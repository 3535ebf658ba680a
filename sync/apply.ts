import { sql, type Kysely } from 'kysely';
import {
  asRemoteChange,
  changesMark,
  deleteRecord,
  dropChangesSince,
  flushChanges,
  writeRecords,
  type RecordWrite,
  updateRecord,
  type Executor,
  type Provenance,
} from '../server/db/records.ts';
import { isUniqueViolation } from '../server/errors.ts';
import type { DB, RecordTable } from '../server/db/schema.ts';
import { ApiError } from '../server/errors.ts';
import { MERGE_RULES, isSyncedTable, rankOf, type SyncedTable, type TableRule } from './merge-rules.ts';
import { PREFIXES } from '../server/ids.ts';
import type { WireChange } from './protocol.ts';
import { mergeCustomers } from './customers-merge.ts';
import { afterApply, type Touched } from './derived.ts';
import { columnInfoOf, type ColumnInfo } from './columns.ts';
import { credentialsOf, WRITE_RULES } from './write-rules.ts';

export type { ApplyContext } from './apply-context.ts';
import type { ApplyContext } from './apply-context.ts';
import { formerSlugsOf, MAX_FORMER_SLUGS, restaurantBySlugOrFormer } from '../server/domain/restaurants/slugs.ts';
import type { OrderRow } from '../server/db/tables/orders.table.ts';
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
  const taken = await loadTaken(trx, ctx.restaurantId, fresh);
  const counters = new Map<string, { business_date: string; node_tag: string; last: number }>();
  const touched: Touched = { orders: new Map(), placed: new Set(), events: [], reservations: new Set(), customers: new Set(), repointed: new Map(), paid: new Set(), overruled: [], unapplied: [] };

  let applied = 0;
  // where a line steps aside to when its place is taken (below any place a node steps lines to)
  let aside = -1_000_000;
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
  await raiseCounters(trx, ctx.restaurantId, counters);
  await afterApply(trx, ctx, touched);
  await mergeCustomers(trx, ctx, touched, { orders: [...touched.orders.keys()], reservations: [...touched.reservations] });
  return applied;

  /**
   * A line the other side moved (a merge, its own placing) to a place another line holds here:
   * it steps aside, and both checks' lines are put in their places after the batch.
   */
  async function stepAsideIfTaken(local: Record<string, unknown>, patch: Record<string, unknown>): Promise<void> {
    const orderId = String(patch.order_id ?? local.order_id);
    const idx = Number(patch.idx ?? local.idx);
    await flushRun();
    const holder = await trx.selectFrom('order_items').select('id').where('order_id', '=', orderId).where('idx', '=', idx).where('id', '!=', String(local.id)).executeTakeFirst();
    if (holder) patch.idx = aside--;
    touched.placed.add(orderId);
    touched.placed.add(String(local.order_id));
  }

  async function applyOne(c: WireChange): Promise<number> {
    const table = c.table as RecordTable;
    const key = `${c.table}:${c.row_id}`;
    const rule = MERGE_RULES[c.table] ?? {};
    const local = current.get(key);
    const rc = clocks.get(key) ?? noClocks();
    const from: Provenance = ctx.repair ? { hlc: c.hlc ?? LOW, fields: null } : { op_id: c.op_id, origin: c.origin, origin_seq: c.origin_seq, hlc: c.hlc ?? LOW, fields: null };
    noteBefore(touched, c, local);

    if (rc.deleted !== null) return 0; // a tombstone wins over every edit
    if (c.op === 'delete') {
      await flushRun();
      if (local) await asRemoteChange(trx, from, () => deleteRecord(trx, table, ownKey(c, ctx)));
      rc.deleted = c.hlc ?? LOW;
      clocks.set(key, rc);
      current.delete(key);
      return 1;
    }
    if (!local) {
      // new here (or its insert was compacted away on the sender): the row as the change left it
      const row = { ...c.data };
      if (c.table === 'orders') {
        noteNumber(counters, row);
        if (taken.orders.has(slotOfOrder(row))) {
          await flushRun();
          await makeRoomForOrderNumber(trx, row, current);
        }
        taken.orders.add(slotOfOrder(row));
      } else if (c.table === 'order_items') {
        // a place another line holds here: the line steps aside, and the check's lines are
        // put in their places after the batch (server/domain/orders/positions.ts)
        if (taken.lines.has(slotOfLine(row))) row.idx = aside--;
        taken.lines.add(slotOfLine(row));
      }
      (run ??= []).push({ op: 'insert', table, row, from });
      current.set(key, row);
      if ((c.hlc ?? LOW) > rc.all) rc.all = c.hlc ?? LOW;
      clocks.set(key, rc);
      noteAfter(touched, c, row, true);
      return 1;
    }
    const patch = merge(rule, local, rc, c, touched, keptHere(ctx, c.table, local));
    if (Object.keys(patch).length === 0) return 0;
    if (patched.has(key)) await flushRun();
    if (c.table === 'order_items' && ('idx' in patch || 'order_id' in patch)) await stepAsideIfTaken(local, patch);
    patched.add(key);
    (run ??= []).push({ op: 'update', table, key: ownKey(c, ctx), patch, from: { ...from, fields: Object.keys(patch) } });
    // the row as the patch leaves it (what the UPDATE returns: no trigger moves a synced table's columns)
    const saved = { ...local, ...patch };
    current.set(key, saved);
    setAll(rc, Object.keys(patch), c.hlc ?? LOW);
    clocks.set(key, rc);
    noteAfter(touched, c, saved as Record<string, unknown>, false);
    // a held course the other side fired: its lines go to their stations here too
    if (c.table === 'order_items' && Number(local.held) === 1 && Number(saved.held) === 0) noteOf(touched, String(saved.order_id)).firedItemIds.push(c.row_id);
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
  if (life && c.table === 'orders' && (local.merged_into != null || (c.data.merged_into != null && (asked.includes('merged_into') || asked.includes(life.column))))) {
    const theirs = c.data.merged_into;
    const otherMerge = local.merged_into != null && theirs != null && theirs !== local.merged_into && asked.includes('merged_into');
    // merged into one check here and into another there, while apart: the later merge stands on
    // both sides (its lines and money moved with the same clock), and the other is listed
    const laterThere = otherMerge && clockIn('merged_into') > clockOf(rc, 'merged_into');
    if (local.merged_into == null || laterThere) {
      patch[life.column] = c.data[life.column];
      for (const f of life.follows) if (f in c.data) patch[f] = c.data[f];
    } else if (theirs === local.merged_into) {
      // merged into the same check on both sides apart: one merge, its time and words the later
      // side's (the sync fuzzer, seed 485870: each side kept its own cancel time for ever)
      for (const f of life.follows) if (f in c.data && asked.includes(f) && clockIn(f) > clockOf(rc, f)) patch[f] = c.data[f];
    }
    if (otherMerge) {
      const [kept, overruled] = laterThere ? [theirs, local.merged_into] : [local.merged_into, theirs];
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

/** A row by id, and (but for a restaurant itself) its restaurant: a write never reaches past it. */
const ownKey = (c: WireChange, ctx: ApplyContext) => (c.table === 'restaurants' ? { id: c.row_id } : { id: c.row_id, restaurant_id: ctx.restaurantId });

const same = (a: unknown, b: unknown) => a === b || (a !== null && b !== null && typeof a === 'object' && JSON.stringify(a) === JSON.stringify(b));

function setAll(rc: RowClocks, fields: string[], hlc: string): void {
  for (const f of fields) if (hlc > (rc.fields.get(f) ?? LOW)) rc.fields.set(f, hlc);
}

function noteOf(t: Touched, orderId: string): Touched['orders'] extends Map<string, infer N> ? N : never {
  if (!t.orders.has(orderId)) t.orders.set(orderId, { previousStatus: undefined, newItemIds: [], changedItemIds: [], firedItemIds: [], livemode: null });
  return t.orders.get(orderId)!;
}

function noteBefore(t: Touched, c: WireChange, local: Record<string, unknown> | undefined): void {
  // a row moved from one customer to another: the other side's merge of the two, maybe
  if ((c.table === 'orders' || c.table === 'reservations' || c.table === 'waitlist_entries') && local?.customer_id && c.data.customer_id && c.data.customer_id !== local.customer_id) {
    t.repointed.set(String(local.customer_id), String(c.data.customer_id));
  }
  // money moved off a check (the other side's merge): the check it leaves is counted again too
  if ((c.table === 'payments' || c.table === 'payment_refunds') && local?.order_id && c.data.order_id && local.order_id !== c.data.order_id) t.paid.add(String(local.order_id));
  const orderId = c.table === 'orders' ? c.row_id : c.table === 'order_items' ? String(c.data.order_id) : null;
  if (!orderId) return;
  const note = noteOf(t, orderId);
  // the order's status before this batch: from its first own change (its lines may come first)
  if (c.table === 'orders' && note.previousStatus === undefined) note.previousStatus = (local?.status as OrderRow['status'] | undefined) ?? null;
}

function noteAfter(t: Touched, c: WireChange, row: Record<string, unknown>, inserted: boolean): void {
  if (c.table === 'orders' || c.table === 'order_items') {
    // a line's check here, which is not the one the change names when this side merged it away
    const o = noteOf(t, c.table === 'orders' ? c.row_id : String(row.order_id));
    if (c.table === 'order_items') (inserted ? o.newItemIds : o.changedItemIds).push(c.row_id);
  }
  if (c.table === 'events' && inserted) t.events.push(row);
  if (c.table === 'reservations') t.reservations.add(c.row_id);
  if (c.table === 'customers') t.customers.add(c.row_id);
  if (c.table === 'payments' || c.table === 'payment_refunds') t.paid.add(String(row.order_id));
}

/**
 * Order numbers are unique per business day. Each node numbers with its own tag, but a hub
 * restored from a backup numbers again from where the backup stood. Of two orders with one
 * number, the one with the lower id keeps it on every node and the other takes its id's last
 * characters as a suffix; this node's counter moves past every number it learns of.
 */
async function makeRoomForOrderNumber(trx: Executor, row: Record<string, unknown>, current: Map<string, Record<string, unknown>>): Promise<void> {
  const clash = await trx
    .selectFrom('orders')
    .select(['id', 'restaurant_id', 'order_number'])
    .where('restaurant_id', '=', String(row.restaurant_id))
    .where('business_date', '=', String(row.business_date))
    .where('order_number', '=', String(row.order_number))
    .where('id', '!=', String(row.id))
    .executeTakeFirst();
  if (!clash) return;
  const suffixed = (id: string) => `${clash.order_number}-${id.slice(-4)}`;
  if (String(row.id) > clash.id) {
    row.order_number = suffixed(String(row.id));
  } else {
    const moved = await updateRecord(trx, 'orders', { id: clash.id, restaurant_id: clash.restaurant_id }, { order_number: suffixed(clash.id) });
    if (moved) current.set(`orders:${clash.id}`, moved as Record<string, unknown>);
  }
}

const slotOfOrder = (row: Record<string, unknown>) => `${row.business_date}|${row.order_number}`;
const slotOfLine = (row: Record<string, unknown>) => `${row.order_id}|${row.idx}`;

/**
 * The order numbers and line positions new rows of a batch would take that are already taken
 * here, read once per batch: almost every new row clashes with nothing, and its insert then
 * stays in its table's multi-row run.
 */
async function loadTaken(trx: Executor, restaurantId: string, fresh: WireChange[]): Promise<{ orders: Set<string>; lines: Set<string> }> {
  const numbers = [...new Set(fresh.filter((c) => c.table === 'orders').map((c) => String(c.data.order_number)))];
  const orderIds = [...new Set(fresh.filter((c) => c.table === 'order_items').map((c) => String(c.data.order_id)))];
  const taken = { orders: new Set<string>(), lines: new Set<string>() };
  for (let i = 0; i < numbers.length; i += 500) {
    const rows = await trx
      .selectFrom('orders')
      .select(['business_date', 'order_number'])
      .where('restaurant_id', '=', restaurantId)
      .where('order_number', 'in', numbers.slice(i, i + 500))
      .execute();
    for (const r of rows) taken.orders.add(slotOfOrder(r));
  }
  for (let i = 0; i < orderIds.length; i += 500) {
    const rows = await trx.selectFrom('order_items').select(['order_id', 'idx']).where('order_id', 'in', orderIds.slice(i, i + 500)).execute();
    for (const r of rows) taken.lines.add(slotOfLine(r));
  }
  return taken;
}

/** The highest number of each day and node a batch brought: this node's counters move past them. */
function noteNumber(counters: Map<string, { business_date: string; node_tag: string; last: number }>, row: Record<string, unknown>): void {
  const [, tag, n] = /^(\D*)(\d+)/.exec(String(row.order_number)) ?? [];
  if (n === undefined) return;
  const key = `${row.business_date}|${tag}`;
  const seen = counters.get(key);
  if (!seen || seen.last < Number(n)) counters.set(key, { business_date: String(row.business_date), node_tag: tag, last: Number(n) });
}

async function raiseCounters(trx: Executor, restaurantId: string, counters: Map<string, { business_date: string; node_tag: string; last: number }>): Promise<void> {
  for (const c of counters.values()) {
    await trx
      .insertInto('order_counters')
      .values({ restaurant_id: restaurantId, ...c })
      .onConflict((oc) =>
        oc.columns(['restaurant_id', 'business_date', 'node_tag']).doUpdateSet({ last: sql<number>`case when order_counters.last < ${c.last} then ${c.last} else order_counters.last end` }),
      )
      .execute();
  }
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
    const owner = c.table === 'restaurants' ? c.data.id : c.data.restaurant_id;
    if (owner !== ctx.restaurantId) {
      throw new ApiError('sync_restaurant_mismatch', `The batch holds a row of another restaurant (${c.table} ${c.row_id}).`);
    }
    if (c.data.id !== c.row_id) throw new ApiError('sync_batch_invalid', `A change names row ${c.row_id} but carries another.`, 'row_id');
    // no command removes a restaurant: a change that does is forged or broken, and applied it
    // would leave the venue's orders without their restaurant (every later order refused)
    if (c.table === 'restaurants' && c.op === 'delete') throw new ApiError('sync_batch_invalid', 'A batch cannot remove a restaurant.', 'op');
    const cols = await columnInfoOf(trx, c.table);
    for (const k of Object.keys(c.data)) {
      if (!cols.has(k)) throw new ApiError('sync_batch_invalid', `Table ${c.table} has no column ${k}.`, 'data');
    }
    // a change carries the whole row as it left it, whatever columns it set
    if (Object.keys(c.data).length !== cols.size) throw new ApiError('sync_batch_invalid', `A change of ${c.table} must carry the whole row.`, 'data');
    // every value as its column takes it: refused here, named, rather than failing the
    // write (a 500 the hub would send again for ever) or stored as something else
    if (c.op !== 'delete') for (const [k, info] of cols) checkValue(c, k, info);
    if (c.table === 'restaurants' && ctx.role === 'cloud') await checkSlugs(trx, ctx, c);
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
 * Guest addresses are unique across the cloud (issue 40): a hub's change may not give its
 * restaurant a slug, or a former slug, that another restaurant holds now or held before: that
 * venue's printed links would open this one's pages. A linked hub asks the cloud before a
 * rename (sync/slug-claim.ts), so only a forged or stale change is refused here, whole.
 */
async function checkSlugs(trx: Executor, ctx: ApplyContext, c: WireChange): Promise<void> {
  const stored = await trx.selectFrom('restaurants').select(['slug', 'former_slugs']).where('id', '=', ctx.restaurantId).executeTakeFirst();
  const held = new Set(stored ? [stored.slug, ...formerSlugsOf(stored)] : []);
  const formers = formerSlugsOf({ former_slugs: typeof c.data.former_slugs === 'string' ? c.data.former_slugs : null });
  if (formers.length > MAX_FORMER_SLUGS && formers.length > (stored ? formerSlugsOf(stored).length : 0)) {
    throw new ApiError('sync_batch_invalid', `A restaurant keeps at most ${MAX_FORMER_SLUGS} former guest addresses.`, 'data');
  }
  const claimed = [c.data.slug, ...formers];
  for (const slug of claimed) {
    if (typeof slug !== 'string' || held.has(slug)) continue;
    const holder = await restaurantBySlugOrFormer(trx, slug);
    if (holder && holder.id !== ctx.restaurantId) {
      throw new ApiError('sync_restaurant_mismatch', `The batch gives this restaurant the guest address '${slug}', which another restaurant on the cloud holds.`);
    }
  }
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
      const owner = table === 'restaurants' ? 'id' : 'restaurant_id';
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

/** The synced table of each id prefix (server/ids.ts). */
const TABLE_OF_PREFIX: Readonly<Record<string, SyncedTable>> = {
  [PREFIXES.restaurant]: 'restaurants',
  [PREFIXES.apiKey]: 'api_keys',
  [PREFIXES.user]: 'users',
  [PREFIXES.station]: 'stations',
  [PREFIXES.menuCategory]: 'menu_categories',
  [PREFIXES.menuItem]: 'menu_items',
  [PREFIXES.modifierGroup]: 'modifier_groups',
  [PREFIXES.table]: 'tables',
  [PREFIXES.customer]: 'customers',
  [PREFIXES.order]: 'orders',
  [PREFIXES.orderItem]: 'order_items',
  [PREFIXES.reservation]: 'reservations',
  [PREFIXES.event]: 'events',
  [PREFIXES.webhookEndpoint]: 'webhook_endpoints',
  [PREFIXES.printer]: 'printers',
  [PREFIXES.shift]: 'shifts',
  [PREFIXES.inventoryItem]: 'inventory_items',
  [PREFIXES.waitlistEntry]: 'waitlist_entries',
  [PREFIXES.feedback]: 'feedback',
  [PREFIXES.qrCode]: 'qr_codes',
  [PREFIXES.delivery]: 'deliveries',
  [PREFIXES.syncResolution]: 'sync_resolutions',
  [PREFIXES.payment]: 'payments',
  [PREFIXES.refund]: 'payment_refunds',
  [PREFIXES.cashCount]: 'cash_counts',
};
const ROW_ID = /^([a-z]+)_[0-9A-HJKMNP-TV-Z]{26}$/;

/** The rows a text value names: itself when it is a row id, or the row ids of a JSON list. */
function rowIdsIn(v: string): [SyncedTable, string][] {
  const one = (s: unknown): [SyncedTable, string] | null => {
    if (typeof s !== 'string') return null;
    const m = ROW_ID.exec(s);
    const table = m ? TABLE_OF_PREFIX[m[1]!] : undefined;
    return table ? [table, s] : null;
  };
  if (v.startsWith('[')) {
    let list: unknown;
    try {
      list = JSON.parse(v);
    } catch {
      return [];
    }
    return Array.isArray(list) ? list.map(one).filter((x): x is [SyncedTable, string] => x !== null) : [];
  }
  const hit = one(v);
  return hit ? [hit] : [];
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
  // checks before their lines and money, as every command locks them
  for (const [table, ids] of [...byTable].sort(([a], [b]) => Number(b === 'orders') - Number(a === 'orders'))) {
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

