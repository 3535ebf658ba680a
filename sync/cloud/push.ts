import type { z } from 'zod';
import { ApiError } from '../../server/errors.ts';
import type { Services } from '../../server/services.ts';
import { MAX_AHEAD_MS, parseHlc } from '../../server/db/hlc.ts';
import { monotonicMs } from '../../server/clock.ts';
import { applyChanges, CheckedChanges } from '../apply.ts';
import type { CloudPosition, pushRequest, WireChange } from '../protocol.ts';
import { countCommits, cursorMismatch, lockHub, position, refusing, type Hub } from './hubs.ts';

/**
 * A hub's batch of its own changes, applied on the cloud after the ones it holds (the hub's
 * cursor), in one transaction with the cursor's move. `gone`: the hub hung up (a batch waiting
 * for its predecessor stops waiting).
 */
export async function pushBatch(services: Services, hub: Hub, body: z.output<typeof pushRequest>, gone: () => boolean): Promise<CloudPosition> {
  // a batch the hub sent before its predecessor was answered may get here first: it waits
  // for that one (while the hub still waits for it) rather than be refused as a gap
  const until = monotonicMs() + (body.wait_ms ?? 0);
  const applyOnce = (checked: CheckedChanges) =>
    services.tx.run(async (trx) => {
      const h = await lockHub(trx, hub.id, services.dialect);
      if (h.epoch !== body.epoch) throw cursorMismatch(h, 'epoch');
      // a batch must follow what the cloud holds: one sent after a lost one waits for it
      if (body.after > Number(h.cursor)) throw cursorMismatch(h, 'gap');
      let last = body.after;
      for (const c of body.changes) {
        if (c.origin !== body.epoch || c.origin_seq <= last) {
          throw new ApiError('sync_batch_invalid', 'A push carries only the hub’s own changes, in its log order.', 'changes');
        }
        last = c.origin_seq;
        if (c.origin_seq === Number(h.cursor) && h.cursor_op_id && c.op_id !== h.cursor_op_id) throw cursorMismatch(h, 'diverged');
      }
      // what the cloud already holds is acknowledged again and not applied twice
      const fresh = checked.only((c) => c.origin_seq > Number(h.cursor));
      refuseStampsAhead(fresh.changes, services.clock.now());
      await applyChanges(trx, { restaurantId: h.restaurant_id, role: 'cloud', now: services.clock.now(), hooks: services.registry.hooks }, fresh);
      const top = fresh.changes.at(-1);
      const patch = {
        ...(top ? { cursor: top.origin_seq, cursor_op_id: top.op_id } : {}),
        hub_pending: body.pending ?? 0,
        last_seen_at: Math.floor(services.clock.now() / 1000),
      };
      await trx.updateTable('sync_hubs').set(patch).where('id', '=', h.id).execute();
      return { ...h, ...patch } as Hub;
    });
  return refusing(services, hub, async () => {
    // a waiting batch is woken by its restaurant's commits here (its predecessor's among
    // them) and looks again every QUEUE_POLL_MS for one applied by another process
    let commits: ReturnType<typeof countCommits> | undefined;
    // checked before the hub's lock (the check needs nothing the push before may change, and
    // the pushes of a backlog follow one another through that lock), and after the first
    // heartbeat: a pool busy with other pushes must not leave the line silent
    const checked = await CheckedChanges.of(services.db, { restaurantId: hub.restaurant_id, role: 'cloud', now: services.clock.now(), hooks: services.registry.hooks }, body.changes);
    try {
      for (;;) {
        if (commits) commits.seen = commits.count;
        try {
          return await applyOnce(checked);
        } catch (err) {
          if (!isGap(err) || gone() || monotonicMs() >= until) throw err;
          commits ??= countCommits(services, hub.restaurant_id);
          await commits.next(Math.min(QUEUE_POLL_MS, until - monotonicMs()));
        }
      }
    } finally {
      commits?.off();
    }
  }).then((at) => position(services, at));
}

/**
 * A stamp further ahead of this cloud's clock than MAX_AHEAD_MS comes from a clock that
 * jumped: taken, it would drag every later stamp of the restaurant into the future (or,
 * capped, let it beat later edits forever). The batch is refused whole; the hub measures
 * its clock again, re-dates what it has not sent yet and pushes again (sync/clock.ts).
 */
function refuseStampsAhead(changes: WireChange[], nowMs: number): void {
  const bound = nowMs + MAX_AHEAD_MS;
  const ahead = changes.find((c) => c.hlc !== null && parseHlc(c.hlc).ms > bound);
  if (ahead) {
    const by = Math.round((parseHlc(ahead.hlc!).ms - nowMs) / 1000);
    throw new ApiError('sync_batch_invalid', `A change is stamped ${by} s ahead of the cloud’s clock (at most ${MAX_AHEAD_MS / 1000} s): check the hub’s clock.`, 'hlc');
  }
}

const isGap = (err: unknown) => err instanceof ApiError && err.code === 'sync_cursor_mismatch' && err.param === 'gap';

/** How often a batch waiting for its predecessor looks again (one applied by another process is not announced here). */
const QUEUE_POLL_MS = 50;

