import type { z } from 'zod';
import type { Services } from '../../server/services.ts';
import { monotonicMs } from '../../server/clock.ts';
import { countLog, readLog } from '../changes.ts';
import type { pullAnswer, pullRequest } from '../protocol.ts';
import { countCommits, cursorMismatch, notePulled, position, type Hub } from './hubs.ts';

type PullAnswer = z.output<typeof pullAnswer>;

/**
 * A hub pulls a page of the cloud's log after its position (never its own changes back). The
 * first read is made at once; `answer` holds the poll open while the page brings the hub
 * nothing, until a change of the restaurant is committed or the wait is over. `waits`: the
 * answer is a wait the hub asked heartbeats for (the route streams it).
 */
export async function openPull(
  services: Services,
  hub: Hub,
  node: { origin: string; head: number },
  body: z.output<typeof pullRequest>,
  opts: { gone: () => boolean; closing: AbortSignal },
): Promise<{ waits: boolean; answer: () => Promise<PullAnswer> }> {
  const pos = await position(services, hub, node);
  if (body.after > pos.head) throw cursorMismatch(hub, 'ahead', pos.head);
  await notePulled(services, hub, body.after, Math.floor(pos.now / 1000));
  // this process's commits of this restaurant, counted from before the first read: one that
  // lands while a read runs is not missed (it would wait for the next poll)
  const commits = countCommits(services, hub.restaurant_id);
  const read = (after: number) => {
    commits.seen = commits.count;
    return readLog(services.db, { restaurantId: hub.restaurant_id, after, notOrigin: body.epoch, limit: body.limit });
  };
  let page: Awaited<ReturnType<typeof read>>;
  try {
    page = await read(body.after);
  } catch (err) {
    commits.off();
    throw err;
  }
  // a long poll: held open until a change of the restaurant is committed, here or on
  // another process (seen within the poll interval), or until the wait is over
  const until = monotonicMs() + (body.wait_ms ?? 0);
  // Held while the page brings the hub nothing: the hub's own pushes move the restaurant's
  // log too (and are left out of its pull), and answering each of them with an empty page
  // cost the hub a round trip and a commit per push, and the cloud a pull, for nothing. The
  // wait goes on from where the last read ended; its end answers that position as before.
  let through = body.after;
  const answer = async () => {
    try {
      while (page.changes.length === 0 && monotonicMs() < until && !opts.gone() && !opts.closing.aborted) {
        // an empty page read through the log's top: all of it is the hub's own, so the hub
        // holds the log up to there. Compaction's watermark follows it now rather than when
        // the wait ends (answered at once, the hub's next pull used to say so itself).
        if (page.last > through) {
          through = page.last;
          await notePulled(services, hub, through);
        }
        await commits.next(Math.min(250, until - monotonicMs()));
        page = await read(page.last);
      }
    } finally {
      commits.off();
    }
    const waiting = page.more ? await countLog(services.db, { restaurantId: hub.restaurant_id, after: page.last, notOrigin: body.epoch }) : 0;
    // the hub's checkpoint: the op id at the position it will have pulled through
    const at = page.lastOpId !== undefined ? { op_id: page.lastOpId } : page.last > 0 ? await services.db.selectFrom('change_log').select('op_id').where('seq', '=', page.last).executeTakeFirst() : undefined;
    // the time of the answer, not of the question: the hub measures its clock by it
    return { ...pos, ...page, pending: waiting, now: services.clock.now(), last_op_id: at?.op_id ?? null };
  };
  const waits = !!body.heartbeat_ms && page.changes.length === 0 && until > monotonicMs() && !opts.closing.aborted;
  return { waits, answer };
}
