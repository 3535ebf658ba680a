export interface BackoffOptions {
  /** delay after the first crash */
  initialMs: number;
  /** ceiling */
  maxMs: number;
  /** a run that lasted this long was healthy: the next crash starts from initialMs again */
  resetAfterMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 250, maxMs: 30_000, resetAfterMs: 60_000 };

/**
 * After starts that failed (the hub never got ready: its port taken, its disk full): 1 s,
 * 2 s, … up to 5 min. Such a cause seldom clears in a second; the status window offers
 * "Try again" for when the owner has fixed it.
 */
export const START_BACKOFF: BackoffOptions = { initialMs: 1000, maxMs: 300_000, resetAfterMs: 60_000 };

/** Doubling delays: 250 ms, 500 ms, 1 s, … up to 30 s; a healthy run resets the count. */
export function restartDelay(consecutiveCrashes: number, o: BackoffOptions = DEFAULT_BACKOFF): number {
  return Math.min(o.maxMs, o.initialMs * 2 ** Math.max(0, consecutiveCrashes - 1));
}
