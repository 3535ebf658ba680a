import type { Kysely } from 'kysely';
import type { DB } from '../server/db/schema.ts';
import { currentEpoch } from './epoch.ts';
import { readLink } from './hub.ts';

/** Entries younger than this stay whole: screens resume from them and the audit reads them. */
export const KEEP_MS = 24 * 3600 * 1000;

/**
 * Compacts the change log: of the entries both sides hold (at or below what the other side
 * acknowledged) and older than a day, each row keeps only its latest entry, which carries the
 * whole row; when each column was last set moves to sync_row_clocks, so merges still compare
 * against the true times. Live screens resuming from before the compacted position get
 * `resync` (node_state.compacted_through).
 */
export async function compactLog(db: Kysely<DB>, opts: { nowMs: number; keepMs?: number }): Promise<{ removed: number }> {
  const cutoff = opts.nowMs - (opts.keepMs ?? KEEP_MS);
  const marks = await watermarks(db);
  let removed = 0;
  for (const [restaurantId, mark] of marks) {
    // the position below which every entry is also old enough
    const young = await db.selectFrom('change_log').select((eb) => eb.fn.min('seq').as('seq')).where('restaurant_id', '=', restaurantId).where('created', '>=', cutoff).executeTakeFirst();
    const upTo = Math.min(mark, young?.seq == null ? Infinity : Number(young.seq) - 1);
    if (!(upTo > 0)) continue;
    for (;;) {
      const groups = await db
        .selectFrom('change_log')
        .select(['table_name', 'row_id'])
        .where('restaurant_id', '=', restaurantId)
        .where('seq', '<=', upTo)
        .groupBy(['table_name', 'row_id'])
        .having((eb) => eb.fn.countAll(), '>', 1)
        .limit(500)
        .execute();
      if (groups.length === 0) break;
      removed += await db.transaction().execute(async (trx) => {
        let n = 0;
        for (const g of groups) {
          const entries = await trx
            .selectFrom('change_log')
            .select(['seq', 'op', 'hlc', 'fields'])
            .where('table_name', '=', g.table_name)
            .where('row_id', '=', g.row_id)
            .where('seq', '<=', upTo)
            .orderBy('seq')
            .execute();
          const kept = await trx.selectFrom('sync_row_clocks').select('clocks').where('table_name', '=', g.table_name).where('row_id', '=', g.row_id).executeTakeFirst();
          const clocks: Record<string, string> = kept ? JSON.parse(kept.clocks) : {};
          const raise = (f: string, h: string | null) => {
            if (h !== null && h > (clocks[f] ?? '')) clocks[f] = h;
          };
          for (const e of entries.slice(0, -1)) {
            if (e.op === 'delete') raise('_deleted', e.hlc);
            else if (e.fields) for (const f of JSON.parse(e.fields) as string[]) raise(f, e.hlc);
            else raise('*', e.hlc);
          }
          const last = entries[entries.length - 1];
          const gone = await trx.deleteFrom('change_log').where('table_name', '=', g.table_name).where('row_id', '=', g.row_id).where('seq', '<', last.seq).executeTakeFirst();
          n += Number(gone.numDeletedRows);
          const json = JSON.stringify(clocks);
          await trx
            .insertInto('sync_row_clocks')
            .values({ table_name: g.table_name, row_id: g.row_id, clocks: json })
            .onConflict((oc) => oc.columns(['table_name', 'row_id']).doUpdateSet({ clocks: json }))
            .execute();
        }
        await trx.updateTable('node_state').set({ compacted_through: upTo }).where('id', '=', 1).where('compacted_through', '<', upTo).execute();
        return n;
      });
    }
  }
  return { removed };
}

/** Per linked restaurant, the log position up to which both sides hold every entry. */
async function watermarks(db: Kysely<DB>): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const link = await readLink(db);
  if (link) {
    // the cloud acknowledged this hub's own entries up to push_cursor; pulled ones it made
    out.set(link.restaurant_id, Number(link.push_cursor));
    return out;
  }
  const hubs = await db.selectFrom('sync_hubs').select(['restaurant_id', 'pulled_through', 'epoch']).where('revoked_at', 'is', null).execute();
  const own = await currentEpoch(db);
  for (const h of hubs) if (h.epoch !== own) out.set(h.restaurant_id, Number(h.pulled_through));
  return out;
}
