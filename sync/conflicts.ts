import type { Selectable } from 'kysely';
import { z } from 'zod';
import { insertRecord, type Executor } from '../server/db/records.ts';
import { locksRows } from '../server/db/row-locks.ts';
import type { DB } from '../server/db/schema.ts';
import { ApiError, notFound } from '../server/errors.ts';
import { named, unix } from '../server/model/schemas.ts';
import { newId, PREFIXES } from '../server/ids.ts';
import { ACTIVE_RESERVATION_STATUSES } from '../server/model/reservations.ts';

type ConflictRow = Selectable<DB['sync_conflicts']>;
type ResolutionRow = Selectable<DB['sync_resolutions']>;

export const SyncConflictSchema = named(
  'SyncConflict',
  z.object({
    object: z.literal('sync_conflict'),
    id: z.string(),
    kind: z.string(),
    table: z.string(),
    row_ids: z.array(z.string()),
    /** what the merge found, its shape depends on the kind */
    detail: z.unknown(),
    created: unix(),
    /** who settled it, when, and why; null while it is open (the status lists open ones only) */
    resolved: z.object({ at: unix(), by: z.string(), note: z.string().nullable() }).nullable(),
  }),
);
export type SyncConflict = z.output<typeof SyncConflictSchema>;

export function presentConflict(c: ConflictRow, r: ResolutionRow | null = null): SyncConflict {
  return {
    object: 'sync_conflict',
    id: c.id,
    kind: c.kind,
    table: c.table_name,
    row_ids: JSON.parse(c.row_ids),
    detail: JSON.parse(c.detail),
    created: Number(c.created),
    resolved: r ? { at: Number(r.created), by: r.resolved_by, note: r.note } : null,
  };
}

/** How many open conflicts the status lists, newest first. */
const LISTED = 50;

/**
 * The conflicts still waiting for a person: none a person settled, on this node or the other
 * (a settlement is a replicated record naming the conflict by kind and records), and no double
 * booking whose two bookings no longer clash (one moved, cancelled or finished since): that one
 * settled itself, and it is listed again should they clash again. An overpayment (one bill paid
 * on both sides while apart) leaves the list the same way once a refund brings it back to its total.
 */
export async function openConflicts(db: Executor, restaurantId: string): Promise<SyncConflict[]> {
  const rows = await db
    .selectFrom('sync_conflicts as c')
    .selectAll('c')
    .where('c.restaurant_id', '=', restaurantId)
    .where('c.resolved_at', 'is', null)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('sync_resolutions as r')
            .select('r.id')
            .whereRef('r.restaurant_id', '=', 'c.restaurant_id')
            .whereRef('r.kind', '=', 'c.kind')
            .whereRef('r.row_ids', '=', 'c.row_ids'),
        ),
      ),
    )
    .orderBy('c.created', 'desc')
    .orderBy('c.id', 'desc')
    .limit(LISTED * 4)
    .execute();
  const clashing = await stillClashing(db, rows.filter((c) => c.kind === 'double_booking'));
  const overpaid = await stillOverpaid(db, rows.filter((c) => c.kind === 'overpayment'));
  return rows
    .filter((c) => c.kind !== 'double_booking' || clashing.has(c.id))
    .filter((c) => c.kind !== 'overpayment' || overpaid.has(c.id))
    .slice(0, LISTED)
    .map((c) => presentConflict(c));
}

/** The overpayments whose order still has more paid than its total (a refund settles one). */
async function stillOverpaid(db: Executor, conflicts: ConflictRow[]): Promise<Set<string>> {
  const ids = conflicts.map((c) => (JSON.parse(c.row_ids) as string[])[0]);
  if (!ids.length) return new Set();
  const rows = await db.selectFrom('orders').select(['id', 'total', 'amount_paid']).where('id', 'in', ids).execute();
  const over = new Set(rows.filter((o) => Number(o.amount_paid) > Number(o.total)).map((o) => o.id));
  return new Set(conflicts.filter((c) => over.has((JSON.parse(c.row_ids) as string[])[0])).map((c) => c.id));
}

/** The double bookings whose two reservations still hold one table at overlapping times. */
async function stillClashing(db: Executor, conflicts: ConflictRow[]): Promise<Set<string>> {
  const ids = [...new Set(conflicts.flatMap((c) => JSON.parse(c.row_ids) as string[]))];
  if (!ids.length) return new Set();
  const rows = await db
    .selectFrom('reservations')
    .select(['id', 'table_id', 'livemode', 'status', 'starts_at', 'ends_at'])
    .where('id', 'in', ids)
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  const out = new Set<string>();
  for (const c of conflicts) {
    const [a, b] = (JSON.parse(c.row_ids) as string[]).map((id) => byId.get(id));
    if (!a || !b) continue;
    const clash =
      a.table_id !== null &&
      a.table_id === b.table_id &&
      a.livemode === b.livemode &&
      ACTIVE_RESERVATION_STATUSES.includes(a.status) &&
      ACTIVE_RESERVATION_STATUSES.includes(b.status) &&
      Number(a.starts_at) < Number(b.ends_at) &&
      Number(b.starts_at) < Number(a.ends_at);
    if (clash) out.add(c.id);
  }
  return out;
}

/**
 * A person settles a conflict. The settlement is a replicated record (written through
 * records.ts, so it ships to the other node like any change) and names the conflict by its
 * kind and records, which both nodes share: the conflict leaves the status on both sides.
 */
export async function resolveConflict(
  trx: Executor,
  actor: { restaurantId: string; now: number },
  id: string,
  input: { by: string; note?: string | null },
): Promise<SyncConflict> {
  let q = trx.selectFrom('sync_conflicts').selectAll().where('id', '=', id).where('restaurant_id', '=', actor.restaurantId);
  // two people settling it at once on the cloud: the second waits, then finds it settled
  if (locksRows(trx)) q = q.forUpdate();
  const conflict = await q.executeTakeFirst();
  if (!conflict) throw notFound('sync conflict', id);
  const prior = await trx
    .selectFrom('sync_resolutions')
    .select(['created'])
    .where('restaurant_id', '=', actor.restaurantId)
    .where('kind', '=', conflict.kind)
    .where('row_ids', '=', conflict.row_ids)
    .executeTakeFirst();
  if (prior || conflict.resolved_at !== null) throw new ApiError('state_conflict', 'This conflict has already been settled.');
  const note = input.note?.trim() || null;
  const resolution = await insertRecord(trx, 'sync_resolutions', {
    id: newId(PREFIXES.syncResolution, actor.now),
    restaurant_id: actor.restaurantId,
    kind: conflict.kind,
    row_ids: conflict.row_ids,
    note,
    resolved_by: input.by,
    created: Math.floor(actor.now / 1000),
  });
  return presentConflict(conflict, resolution);
}
