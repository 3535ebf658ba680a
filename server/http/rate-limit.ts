import { ApiError } from '../errors.ts';

/**
 * Token buckets kept in memory: a hub is one process, and a cloud behind a load balancer
 * gets a per-process limit, which is what the operator configures anyway. Times are the
 * clock's monotonic milliseconds (Clock.monotonic): a bucket refilled by the wall clock
 * emptied for as long as the clock was stepped back, and every client got 429.
 */
export class RateLimiter {
  private buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly ratePerSecond: number,
    private readonly burst: number,
  ) {}

  /** Takes one token for `key` or throws 429 with Retry-After in whole seconds. */
  take(key: string, nowMs: number): void {
    if (!this.tryTake(key, nowMs)) throw this.refusal(key, 1);
  }

  /** Takes one token while the bucket holds at least `keep + 1` (so `keep` stay for others); whether it did. */
  tryTake(key: string, nowMs: number, keep = 0): boolean {
    const b = this.bucket(key, nowMs);
    if (b.tokens < keep + 1) return false;
    b.tokens -= 1;
    return true;
  }

  /** The 429 for `key` while it holds fewer than `needed` tokens, with when that will be so. */
  refusal(key: string, needed: number): ApiError {
    const b = this.buckets.get(key);
    const retryAfter = Math.max(1, Math.ceil((needed - (b?.tokens ?? 0)) / this.ratePerSecond));
    return new ApiError('rate_limited', 'Too many requests; slow down and retry after the time given in Retry-After.', null, {
      'Retry-After': String(retryAfter),
    });
  }

  private bucket(key: string, nowMs: number): { tokens: number; at: number } {
    let b = this.buckets.get(key);
    if (!b) {
      b = { tokens: this.burst, at: nowMs };
      this.buckets.set(key, b);
      if (this.buckets.size > 100_000) this.sweep(nowMs);
    }
    // time that went backwards (a source that is not monotonic after all) refills nothing and takes nothing
    b.tokens = Math.min(this.burst, b.tokens + (Math.max(0, nowMs - b.at) / 1000) * this.ratePerSecond);
    b.at = Math.max(b.at, nowMs);
    return b;
  }

  private sweep(nowMs: number): void {
    for (const [k, b] of this.buckets) if (nowMs - b.at > 60_000) this.buckets.delete(k);
  }
}

/**
 * A budget many clients share (a restaurant's guest requests) that a handful of them cannot
 * spend for everyone. The first half is open to any client (each one is also held to its own
 * per-address limit elsewhere); the second half, the reserve, serves only clients that have
 * asked little of this budget lately: at most `lightPerMinute` requests a minute each. A few
 * addresses at full speed therefore use up the open half and are refused, while the guests
 * who ask now and then still get in; starving them takes reserve / lightPerMinute more
 * addresses, each kept slow.
 */
export class SharedBudget {
  private readonly pool: RateLimiter;
  private readonly light: RateLimiter;

  constructor(
    private readonly perMinute: number,
    lightPerMinute: number,
  ) {
    this.pool = new RateLimiter(perMinute / 60, perMinute);
    this.light = new RateLimiter(lightPerMinute / 60, lightPerMinute);
  }

  /** One request of `client` against `owner`'s budget, or 429 with Retry-After. */
  take(owner: string, client: string, nowMs: number): void {
    const reserve = Math.floor(this.perMinute / 2);
    // every request counts against the client's light allowance, granted or not
    const isLight = this.light.tryTake(`${owner}|${client}`, nowMs);
    if (this.pool.tryTake(owner, nowMs, isLight ? 0 : reserve)) return;
    throw isLight ? this.pool.refusal(owner, 1) : this.light.refusal(`${owner}|${client}`, 1);
  }
}
