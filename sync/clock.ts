import type { Kysely } from 'kysely';
import { lockScope } from '../server/db/log-positions.ts';
import { clockOffset, formatHlc, nodeOf, parseHlc, physicalNow, setClockOffset } from '../server/db/hlc.ts';
import type { DB } from '../server/db/schema.ts';
import type { Services } from '../server/services.ts';

/**
 * The hub follows the cloud's time. Its clock may be wrong at link time (sync/link.ts
 * re-dates the history then) or be stepped while it runs (an NTP correction, a person
 * setting the time, a PC that slept): the offset is measured again on every exchange, and
 * what the hub stamped beyond the bound before it noticed is re-dated before it is sent.
 */

/** Offsets closer than this to the one in use are noise (request time): not written down. */
const OFFSET_NOISE_MS = 50;

/**
 * An exchange with the cloud answered at `cloudNow`: the offset to its clock. A request the
 * cloud held open (a long poll) was answered close to when it arrived back; a short one,
 * halfway between sending and receiving.
 */
export async function measureOffset(services: Services, ex: { sent: number; back: number; cloudNow: number; held: boolean }): Promise<number> {
  const { db } = services;
  const local = ex.held ? ex.back : (ex.sent + ex.back) / 2;
  const offset = Math.round(ex.cloudNow - local);
  if (Math.abs(offset - clockOffset(db)) < OFFSET_NOISE_MS) return clockOffset(db);
  setClockOffset(db, offset);
  await db.updateTable('sync_link').set({ clock_offset_ms: offset }).where('id', '=', 1).execute();
  return offset;
}

/** Own stamps further than this ahead of the cloud's time were made by a clock that jumped. */
export const REDATE_BEYOND_MS = 60_000;

/**
 * Re-dates this hub's own changes the cloud does not hold yet (after `cloudCursor`) whose
 * stamps lie more than REDATE_BEYOND_MS ahead of the cloud's time, so the cloud (which
 * refuses stamps beyond MAX_AHEAD_MS) takes them and its later edits still win. Nothing
 * re-dated was ever sent with its old stamp: the cloud holds nothing after its cursor and
 * the caller holds the push lock. The newest moves to now, the others keep their distance
 * to it; none drops below a stamp it is not re-dated with (order of edits is kept, a change
 * pulled before an own edit stays before it). Returns how many were re-dated.
 */
export async function redateAhead(services: Services, restaurantId: string, cloudCursor: number): Promise<number> {
  const { db } = services;
  const limit = physicalNow(db) + REDATE_BEYOND_MS;
  const quick = await db.selectFrom('log_clocks').select('hlc').where('restaurant_id', '=', restaurantId).executeTakeFirst();
  if (!quick?.hlc || parseHlc(quick.hlc).ms <= limit) return 0;
  return services.tx.run(async (trx) => {
    // the lock every log write of the restaurant takes: none of its stamps is handed out meanwhile
    await lockScope(trx, restaurantId);
    const st = await trx.selectFrom('node_state').select('origin').where('id', '=', 1).executeTakeFirstOrThrow();
    const node = nodeOf(st.origin);
    const bound = formatHlc(limit, 0xffff, node);
    const ahead = await trx
      .selectFrom('change_log')
      .select(['seq', 'hlc'])
      .where('restaurant_id', '=', restaurantId)
      .where('origin', '=', st.origin)
      .where('origin_seq', '>', cloudCursor)
      .where('hlc', '>', bound)
      .orderBy('seq')
      .execute();
    const kept = await trx
      .selectFrom('change_log')
      .select((eb) => eb.fn.max('hlc').as('hlc'))
      .where('restaurant_id', '=', restaurantId)
      .where((eb) => eb.or([eb('origin', '!=', st.origin), eb('origin_seq', '<=', cloudCursor), eb('hlc', '<=', bound)]))
      .executeTakeFirst();
    const floor = kept?.hlc ? parseHlc(kept.hlc) : { ms: 0, counter: 0 };
    if (ahead.length === 0) {
      // nothing unsent is ahead: the persisted stamp alone ran ahead (the stamps went out
      // within the cloud's bound, which moved past them); it falls back to what the log holds
      await trx.updateTable('log_clocks').set({ hlc: kept?.hlc ?? null }).where('restaurant_id', '=', restaurantId).execute();
      return 0;
    }
    const shift = physicalNow(db) - Math.max(...ahead.map((a) => parseHlc(a.hlc!).ms));
    let prev = floor;
    for (const a of ahead) {
      const t = parseHlc(a.hlc!);
      let next = { ms: t.ms + shift, counter: t.counter };
      if (next.ms < prev.ms || (next.ms === prev.ms && next.counter <= prev.counter)) {
        next = prev.counter < 0xffff ? { ms: prev.ms, counter: prev.counter + 1 } : { ms: prev.ms + 1, counter: 0 };
      }
      await trx.updateTable('change_log').set({ hlc: formatHlc(next.ms, next.counter, a.hlc!.slice(18)) }).where('seq', '=', a.seq).execute();
      prev = next;
    }
    await trx.updateTable('log_clocks').set({ hlc: formatHlc(prev.ms, prev.counter, node) }).where('restaurant_id', '=', restaurantId).execute();
    services.logger.warn({ redated: ahead.length, aheadMs: -shift }, 'sync: this hub’s clock ran ahead of the cloud’s; its unsent changes were re-dated');
    return ahead.length;
  });
}

/** Pushes of one process and the re-dating of what they send never interleave. */
const pushLocks = new WeakMap<object, Promise<unknown>>();

export function withPushLock<T>(db: Kysely<DB>, fn: () => Promise<T>): Promise<T> {
  const key = db.getExecutor().adapter;
  const before = pushLocks.get(key) ?? Promise.resolve();
  const run = before.then(fn, fn);
  pushLocks.set(
    key,
    run.catch(() => {}),
  );
  return run;
}
