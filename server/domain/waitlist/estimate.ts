import type { Executor } from '../../db/records.ts';

/** How far back seatings count towards the pace, and how many of the latest are used. */
export const PACE_WINDOW_SECONDS = 3 * 3600;
export const PACE_SAMPLE = 10;

export interface SeatingPace {
  /** minutes between two seatings, 1..120 */
  minutesPerParty: number;
  /** seconds since the latest seating in the window, or null when there was none */
  sinceLastSeatSeconds: number | null;
  /** 'seatings' when measured, 'default' when the setting was used */
  basis: 'seatings' | 'default';
}

/** One restaurant's queue of one mode: live (1) or sandbox (0) entries never share a queue. */
export interface Queue {
  restaurantId: string;
  livemode: number;
}

/**
 * The recent seating pace of a queue: over the latest PACE_SAMPLE seatings of the last three
 * hours, the average gap between consecutive seatings. With fewer than two such seatings there
 * is no gap to measure and the owner's `default_wait_minutes_per_party` is used. Only seatings
 * of the queue's own mode count: a burst of test seatings says nothing about the live floor.
 */
export async function seatingPace(db: Executor, queue: Queue, nowSec: number, defaultMinutes: number): Promise<SeatingPace> {
  const rows = await db
    .selectFrom('waitlist_entries')
    .select('seated_at')
    .where('restaurant_id', '=', queue.restaurantId)
    .where('livemode', '=', queue.livemode)
    .where('seated_at', '>=', nowSec - PACE_WINDOW_SECONDS)
    .where('seated_at', '<=', nowSec)
    .orderBy('seated_at', 'desc')
    .limit(PACE_SAMPLE)
    .execute();
  return paceOf(
    rows.map((r) => Number(r.seated_at)),
    nowSec,
    defaultMinutes,
  );
}

/**
 * The pace from the seating times the query above selects (latest first, at most
 * PACE_SAMPLE, inside the window): the one computation for it, whether the times come
 * from that query or from a queue snapshot (queue-snapshot.ts).
 */
export function paceOf(times: number[], nowSec: number, defaultMinutes: number): SeatingPace {
  const sinceLastSeatSeconds = times.length > 0 ? nowSec - times[0] : null;
  if (times.length < 2) return { minutesPerParty: defaultMinutes, sinceLastSeatSeconds, basis: 'default' };
  const span = (times[0] - times[times.length - 1]) / 60;
  const minutesPerParty = Math.min(120, Math.max(1, span / (times.length - 1)));
  return { minutesPerParty, sinceLastSeatSeconds, basis: 'seatings' };
}

/**
 * Minutes until a party with `ahead` parties in front of it is called:
 * (ahead + 1) × pace, less the time already gone since the latest seating (at most one
 * pace: a long quiet spell does not make a long queue short), rounded up, never below 0.
 */
export function estimateWaitMinutes(ahead: number, pace: SeatingPace): number {
  const elapsed = Math.min(pace.minutesPerParty, (pace.sinceLastSeatSeconds ?? 0) / 60);
  return Math.max(0, Math.ceil((ahead + 1) * pace.minutesPerParty - elapsed));
}
