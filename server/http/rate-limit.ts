import { ApiError } from '../errors.ts';

/**
 * Token buckets kept in memory: a hub is one process, and a cloud behind a load balancer
 * gets a per-process limit, which is what the operator configures anyway.
 */
export class RateLimiter {
  private buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly ratePerSecond: number,
    private readonly burst: number,
  ) {}

  /** Takes one token for `key` or throws 429 with Retry-After in whole seconds. */
  take(key: string, nowMs: number): void {
    let b = this.buckets.get(key);
    if (!b) {
      b = { tokens: this.burst, at: nowMs };
      this.buckets.set(key, b);
      if (this.buckets.size > 100_000) this.sweep(nowMs);
    }
    b.tokens = Math.min(this.burst, b.tokens + ((nowMs - b.at) / 1000) * this.ratePerSecond);
    b.at = nowMs;
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return;
    }
    const retryAfter = Math.max(1, Math.ceil((1 - b.tokens) / this.ratePerSecond));
    throw new ApiError('rate_limited', 'Too many requests; slow down and retry after the time given in Retry-After.', null, {
      'Retry-After': String(retryAfter),
    });
  }

  private sweep(nowMs: number): void {
    for (const [k, b] of this.buckets) if (nowMs - b.at > 60_000) this.buckets.delete(k);
  }
}
