import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { DB } from '../server/db/schema.ts';
import { named, unix } from '../server/model/schemas.ts';
import { currentEpoch } from './epoch.ts';
import { countLog } from './changes.ts';
import { readLink } from './hub.ts';
import { openConflicts, SyncConflictSchema } from './conflicts.ts';

export const SyncRepairSchema = named(
  'SyncRepair',
  z.object({
    state: z.enum(['unknown', 'in_sync', 'repairing', 'diverged']),
    checked_at: unix().nullable(),
    /** rows the last repair mended */
    repaired_rows: z.number().int(),
    /** rows that stayed different (at most 20) */
    unconverged: z.array(z.object({ table: z.string(), id: z.string() })),
  }),
);

const repairOf = (row: { repair_state: string; repair_checked_at: number | null; repaired_rows: number; repair_unconverged: string | null }) => ({
  state: row.repair_state as z.output<typeof SyncRepairSchema>['state'],
  checked_at: row.repair_checked_at === null ? null : Number(row.repair_checked_at),
  repaired_rows: Number(row.repaired_rows),
  unconverged: row.repair_unconverged ? (JSON.parse(row.repair_unconverged) as { table: string; id: string }[]) : [],
});

export const SyncStatusSchema = named(
  'SyncStatus',
  z.object({
    object: z.literal('sync_status'),
    role: z.enum(['hub', 'cloud']),
    linked: z.boolean(),
    cloud_url: z.string().nullable(),
    hub_id: z.string().nullable(),
    connected: z.boolean(),
    pending_push: z.number().int(),
    pending_pull: z.number().int(),
    last_synced_at: unix().nullable(),
    last_error: z.string().nullable(),
    lag_seconds: z.number().int(),
    /** open conflicts, newest first (at most 50); settled ones leave the list */
    conflicts: z.array(SyncConflictSchema),
    /**
     * The last audit-and-repair: `in_sync`, `repairing` (rows that differed are being mended),
     * `diverged` (rows a repair cannot make the same: a person must look), `unknown` (not run yet).
     */
    repair: SyncRepairSchema,
  }),
);
export type SyncStatus = z.output<typeof SyncStatusSchema>;

/** A hub not heard from for this long is shown as disconnected on the cloud. */
const SEEN_WITHIN_S = 45;

/** Where sync stands for one restaurant, as the hub or the cloud sees it (same shape both sides). */
export async function syncStatus(db: Kysely<DB>, role: 'hub' | 'cloud', restaurantId: string, nowMs: number, live?: { connected: boolean; lastError: string | null }): Promise<SyncStatus> {
  const now = Math.floor(nowMs / 1000);
  const conflicts = await openConflicts(db, restaurantId);
  if (role === 'hub') {
    const link = await readLink(db);
    if (!link || link.restaurant_id !== restaurantId) return empty(role, conflicts);
    const origin = await currentEpoch(db);
    const pending_push = await countLog(db, { restaurantId, after: Number(link.push_cursor), origin });
    const oldest = pending_push
      ? await db
          .selectFrom('change_log')
          .select('created')
          .where('restaurant_id', '=', restaurantId)
          .where('origin', '=', origin)
          .where('origin_seq', '>', Number(link.push_cursor))
          .where('seq', '>', Number(link.push_cursor))
          .orderBy('origin_seq')
          .limit(1)
          .executeTakeFirst()
      : undefined;
    const pending_pull = Number(link.pending_pull);
    return {
      object: 'sync_status',
      role,
      linked: true,
      cloud_url: link.cloud_url,
      hub_id: link.hub_id,
      connected: live ? live.connected : link.connected === 1,
      pending_push,
      pending_pull,
      last_synced_at: link.last_synced_at === null ? null : Number(link.last_synced_at),
      last_error: live ? live.lastError : link.last_error,
      lag_seconds: lagOf(now, oldest ? Math.floor(Number(oldest.created) / 1000) : null, pending_pull ? link.last_synced_at : null),
      conflicts,
      repair: repairOf(link),
    };
  }
  const hub = await db.selectFrom('sync_hubs').selectAll().where('restaurant_id', '=', restaurantId).where('revoked_at', 'is', null).orderBy('created', 'desc').executeTakeFirst();
  if (!hub) return empty(role, conflicts);
  const pending_pull = await countLog(db, { restaurantId, after: Number(hub.pulled_through), notOrigin: hub.epoch ?? '' });
  const seen = hub.last_seen_at === null ? null : Number(hub.last_seen_at);
  return {
    object: 'sync_status',
    role,
    linked: true,
    cloud_url: null,
    hub_id: hub.id,
    connected: seen !== null && now - seen <= SEEN_WITHIN_S,
    pending_push: Number(hub.hub_pending),
    pending_pull,
    last_synced_at: seen,
    last_error: hub.last_error,
    lag_seconds: lagOf(now, null, pending_pull || Number(hub.hub_pending) ? seen : null),
    conflicts,
    repair: repairOf(hub),
  };
}

function lagOf(now: number, oldestPending: number | null, lastSynced: number | null): number {
  const since = [oldestPending, lastSynced].filter((x): x is number => x !== null);
  return since.length ? Math.max(0, now - Math.min(...since)) : 0;
}

const empty = (role: 'hub' | 'cloud', conflicts: SyncStatus['conflicts']): SyncStatus => ({
  object: 'sync_status',
  role,
  linked: false,
  cloud_url: null,
  hub_id: null,
  connected: false,
  pending_push: 0,
  pending_pull: 0,
  last_synced_at: null,
  last_error: null,
  lag_seconds: 0,
  conflicts,
  repair: { state: 'unknown', checked_at: null, repaired_rows: 0, unconverged: [] },
});
