export interface BackoffOptions {
  /** delay after the first crash */
  initialMs: number;
  /** ceiling */
  maxMs: number;
  /** a run that lasted this long was healthy: the next crash starts from initialMs again */
  resetAfterMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 250, maxMs: 30_000, resetAfterMs: 60_000 };

/** Doubling delays: 250 ms, 500 ms, 1 s, … up to 30 s; a healthy run resets the count. */
export function restartDelay(consecutiveCrashes: number, o: BackoffOptions = DEFAULT_BACKOFF): number {
  return Math.min(o.maxMs, o.initialMs * 2 ** Math.max(0, consecutiveCrashes - 1));
}
