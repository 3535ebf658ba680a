/**
 * Retry schedule after a failed attempt: the wait before retry n (1-based) is RETRY_DELAYS[n-1]
 * with ±10 % jitter, so receivers that failed together do not get their retries together.
 * 1 attempt + 9 retries spread over about 3 days 3 hours; then the delivery is failed.
 */
export const RETRY_DELAYS_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3600_000,
  5 * 3600_000,
  10 * 3600_000,
  14 * 3600_000,
  20 * 3600_000,
  24 * 3600_000,
];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
export const JITTER = 0.1;
/** Retry-After is obeyed up to this long. */
export const MAX_RETRY_AFTER_MS = 24 * 3600_000;

/** The wait after the `failedSoFar`-th failed attempt (1-based), or null when no retry is left. */
export function retryDelayMs(failedSoFar: number, random: () => number = Math.random): number | null {
  const base = RETRY_DELAYS_MS[failedSoFar - 1];
  if (base === undefined) return null;
  return Math.round(base * (1 + JITTER * (2 * random() - 1)));
}

/** Retry-After as seconds or an HTTP date, in milliseconds from `nowMs`; null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | null {
  if (!value) return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Math.min(Number(v) * 1000, MAX_RETRY_AFTER_MS);
  const at = Date.parse(v);
  if (Number.isNaN(at)) return null;
  return Math.min(Math.max(0, at - nowMs), MAX_RETRY_AFTER_MS);
}
