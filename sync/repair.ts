import type { Kysely } from 'kysely';
import { z } from 'zod';
import { HLC_PATTERN } from '../server/db/hlc.ts';
import type { Executor } from '../server/db/records.ts';
import type { DB } from '../server/db/schema.ts';
import { newId, PREFIXES } from '../server/ids.ts';
import type { Services } from '../server/services.ts';
import { applyChanges, loadClocks } from './apply.ts';
import { compareSides, type AuditReport, type SideSummary } from './audit.ts';
import { isSyncedTable } from './merge-rules.ts';
import { PROTOCOL_VERSION, type WireChange } from './protocol.ts';

/**
 * Self-repair. The change log is how the two sides normally meet; when it fails them (a cloud
 * restored from a dump, a hub restored from a backup older than a compaction, rows written
 * behind the log's back), the audit finds rows that differ. A repair sends those rows whole,
 * each with when every column was last set (its clocks), both ways; each side merges the
 * other's row by the usual rules (sync/apply.ts), as if the changes that made it had arrived.
 * Rows a repair cannot make the same (two values with one clock: nobody's change to take)
 * are reported, never guessed.
 */

/** One row as a side holds it, with its clocks; `data` is the last state of a deleted row. */
export const repairRow = z.object({
  table: z.string().min(1).max(64),
  id: z.string().min(1).max(64),
  data: z.record(z.string(), z.unknown()),
  /** the clock of the last change that set every column ('' when none is known) */
  all: z.string().max(64),
  /** columns set later than `all`, with their clocks */
  fields: z.record(z.string().max(64), z.string().regex(HLC_PATTERN)),
  /** the clock of the row's deletion, when it was deleted */
  deleted: z.string().regex(HLC_PATTERN).nullable(),
});
export type RepairRow = z.infer<typeof repairRow>;

/** Rows a side offers or asks for in one repair request. */
export const MAX_REPAIR_ROWS = 500;

export const repairRequest = z.object({
  protocol: z.number().int(),
  /** the hub's rows (merged on the cloud before it answers) */
  rows: z.array(repairRow).max(MAX_REPAIR_ROWS),
  /** per table, the ids whose rows the cloud answers with */
  want: z.record(z.string(), z.array(z.string().max(64)).max(MAX_REPAIR_ROWS)),
  /** where the hub's repair stands, for the cloud's status */
  state: z
    .object({
      state: z.enum(['in_sync', 'repairing', 'diverged']),
      repaired_rows: z.number().int().nonnegative(),
      unconverged: z.array(z.object({ table: z.string().max(64), id: z.string().max(64) })).max(20),
    })
    .optional(),
});

/** The cloud's answer to a repair: how many of the hub's rows it took, and the rows asked for. */
export const repairAnswer = z.object({ applied: z.number().int(), rows: z.array(repairRow) });

export type RepairState = 'unknown' | 'in_sync' | 'repairing' | 'diverged';

/** The rows (and tombstones) of `want` as this side holds them, with their clocks. */
export async function rowsWithClocks(db: Executor, restaurantId: string, want: Record<string, string[]>): Promise<RepairRow[]> {
  const byTable = new Map(Object.entries(want).filter(([t, ids]) => isSyncedTable(t) && ids.length > 0));
  if (byTable.size === 0) return [];
  const clocks = await loadClocks(db, byTable);
  const out: RepairRow[] = [];
  for (const [table, ids] of byTable) {
    const rows = await (db as Kysely<any>).selectFrom(table).selectAll().where('id', 'in', ids).execute();
    const owned = (r: Record<string, unknown>) => (table === 'restaurants' ? r.id : r.restaurant_id) === restaurantId;
    const here = new Map(rows.filter(owned).map((r) => [String(r.id), r as Record<string, unknown>]));
    for (const id of ids) {
      const rc = clocks.get(`${table}:${id}`);
      let data = here.get(id);
      if (!data && rc?.deleted != null) {
        // a deleted row: its tombstone carries the last state
        const tomb = await db.selectFrom('change_log').select('data').where('table_name', '=', table).where('row_id', '=', id).where('op', '=', 'delete').orderBy('seq', 'desc').executeTakeFirst();
        const last = tomb ? (JSON.parse(tomb.data) as Record<string, unknown>) : undefined;
        if (last && owned(last)) data = last;
      }
      if (!data) continue;
      const all = rc?.all ?? '';
      const fields = Object.fromEntries([...(rc?.fields ?? new Map<string, string>())].filter(([, h]) => h > all));
      out.push({ table, id, data, all, fields, deleted: rc?.deleted || null });
    }
  }
  return out;
}

/**
 * A row of the other side as changes this side can merge: the row with the clock that set it
 * whole, then each later clock with the columns it set; a deleted row as its deletion.
 */
export function repairChanges(rows: RepairRow[]): WireChange[] {
  const out: WireChange[] = [];
  const change = (r: RepairRow, op: WireChange['op'], hlc: string, fields: string[] | null): WireChange => ({
    op_id: newId(PREFIXES.change),
    origin: 'repair',
    origin_seq: 0,
    table: r.table,
    row_id: r.id,
    op,
    data: r.data,
    fields,
    hlc: hlc || null,
  });
  for (const r of rows) {
    if (r.deleted) {
      out.push(change(r, 'delete', r.deleted, null));
      continue;
    }
    out.push(change(r, 'update', r.all, null));
    const later = new Map<string, string[]>();
    for (const [f, h] of Object.entries(r.fields)) later.set(h, [...(later.get(h) ?? []), f]);
    for (const h of [...later.keys()].sort()) out.push(change(r, 'update', h, later.get(h)!));
  }
  return out;
}

/** Merges the other side's rows here, in one transaction; how many rows it changed. */
export async function mergeRows(services: Services, ctx: { restaurantId: string; role: 'hub' | 'cloud' }, rows: RepairRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  const r = await services.tx.run((trx) => applyChanges(trx, { ...ctx, now: services.clock.now(), hooks: services.registry.hooks, repair: true }, repairChanges(rows)));
  return r.applied;
}

export interface RepairOutcome {
  state: Exclude<RepairState, 'unknown'>;
  repaired_rows: number;
  unconverged: { table: string; id: string }[];
  report: AuditReport;
}

/** How many audit-and-merge rounds a repair takes before it calls the sides diverged. */
const ROUNDS = 3;

/**
 * The hub's repair: audit; for the rows that differ, take the cloud's rows and merge them
 * here, then send this side's (merged) rows for the cloud to merge; audit again. Rows still
 * different after every round, whatever was written meanwhile, are reported as diverged.
 */
export async function repairWithCloud(
  services: Services,
  link: { restaurant_id: string; cloud_url: string; credential: string },
  call: <T>(path: string, body: unknown) => Promise<T>,
  onState: (s: { state: RepairState; repaired_rows: number; unconverged: { table: string; id: string }[] }) => Promise<void>,
): Promise<RepairOutcome> {
  const { db } = services;
  const ctx = { restaurantId: link.restaurant_id, role: 'hub' as const };
  let repaired = 0;
  let stuck = null as Set<string> | null;
  let report: AuditReport;
  for (let round = 0; ; round++) {
    report = await compareSides(db, link.restaurant_id, (ask) => call<SideSummary>('/audit', { protocol: PROTOCOL_VERSION, ...ask }), MAX_REPAIR_ROWS);
    // in sync, or every row that differed came out the same by the last look: changes crossing
    // between the looks, which the log brings together. Under live traffic that is every audit,
    // and each hashes the whole venue on both sides (seconds of the cloud's CPU; with a retry
    // every 20 s for ever, as many times over as hubs). The run ends: nothing differs that the
    // log does not mend
    if (report.in_sync || (report.differences.length === 0 && !report.truncated)) {
      const outcome = { state: 'in_sync' as const, repaired_rows: repaired, unconverged: [] };
      await call('/repair', { protocol: PROTOCOL_VERSION, rows: [], want: {}, state: outcome });
      await onState(outcome);
      return { ...outcome, report };
    }
    const keys = new Set(report.differences.map((d) => `${d.table}:${d.id}`));
    const before: Set<string> | null = stuck;
    stuck = before === null ? keys : new Set([...before].filter((k) => keys.has(k)));
    if (round >= ROUNDS) break;
    const want: Record<string, string[]> = {};
    for (const d of report.differences) (want[d.table] ??= []).push(d.id);
    await onState({ state: 'repairing', repaired_rows: repaired, unconverged: [] });
    // the cloud's rows first, merged here; then this side's merged rows, merged there
    const theirs = await call<{ rows: RepairRow[] }>('/repair', { protocol: PROTOCOL_VERSION, rows: [], want, state: { state: 'repairing', repaired_rows: repaired, unconverged: [] } });
    repaired += await mergeRows(services, ctx, theirs.rows.filter((r) => want[r.table]?.includes(r.id)));
    const mine = await rowsWithClocks(db, link.restaurant_id, want);
    const back = await call<{ applied: number }>('/repair', { protocol: PROTOCOL_VERSION, rows: mine, want: {}, state: { state: 'repairing', repaired_rows: repaired, unconverged: [] } });
    repaired += back.applied;
  }
  const unconverged = [...stuck!].slice(0, 20).map((k) => {
    const i = k.indexOf(':');
    return { table: k.slice(0, i), id: k.slice(i + 1) };
  });
  // rows that differed in every round could not be mended; others kept changing (live edits
  // in flight) and are looked at again by the next run
  const outcome = { state: unconverged.length ? ('diverged' as const) : ('repairing' as const), repaired_rows: repaired, unconverged };
  await call('/repair', { protocol: PROTOCOL_VERSION, rows: [], want: {}, state: outcome });
  await onState(outcome);
  if (unconverged.length) services.logger.error({ rows: unconverged }, 'sync: hub and cloud differ and a repair cannot make them the same');
  return { ...outcome, report };
}

/** Where a side's repair stands, kept on its sync row for the status (and another process). */
export async function saveRepairState(
  db: Kysely<DB>,
  where: { table: 'sync_link' } | { table: 'sync_hubs'; id: string },
  s: { state: RepairState; repaired_rows: number; unconverged: { table: string; id: string }[] },
  nowMs: number,
): Promise<void> {
  const patch = {
    repair_state: s.state,
    repaired_rows: s.repaired_rows,
    repair_unconverged: s.unconverged.length ? JSON.stringify(s.unconverged) : null,
    ...(s.state === 'repairing' ? {} : { repair_checked_at: Math.floor(nowMs / 1000) }),
  };
  if (where.table === 'sync_link') await db.updateTable('sync_link').set(patch).where('id', '=', 1).execute();
  else await db.updateTable('sync_hubs').set(patch).where('id', '=', where.id).execute();
}
