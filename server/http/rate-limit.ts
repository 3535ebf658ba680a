import { ApiError } from '../errors.ts';

const tooMany = (retryAfter: number) =>
  new ApiError('rate_limited', 'Too many requests; slow down and retry after the time given in Retry-After.', null, { 'Retry-After': String(retryAfter) });

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

  /** Whether `key` holds a token now, taking none. */
  has(key: string, nowMs: number): boolean {
    return this.bucket(key, nowMs).tokens >= 1;
  }

  /** Whole seconds (at least 1) until `key` holds `needed` tokens. */
  secondsUntil(key: string, needed: number): number {
    const b = this.buckets.get(key);
    return Math.max(1, Math.ceil((needed - (b?.tokens ?? 0)) / this.ratePerSecond));
  }

  /** The 429 for `key` while it holds fewer than `needed` tokens, with when that will be so. */
  refusal(key: string, needed: number): ApiError {
    return tooMany(this.secondsUntil(key, needed));
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

/** How long a client counts as asking (and how long its use is remembered, decaying). */
const WINDOW_MS = 60_000;

interface ClientUse {
  /** requests granted, decaying with a time constant of a minute: about the client's rate per minute */
  used: number;
  at: number;
  seen: number;
}

/**
 * A budget many clients share (a restaurant's guest requests) that no number of them short of
 * the budget itself can spend for everyone (max-min fairness). While the restaurant's bucket
 * holds tokens, anyone takes one. Once it is empty, a client is still served while its own use
 * over the last minute is below its fair share: the budget divided by the clients that asked in
 * that minute. Clients asking at full speed are held to that share; a guest asking now and then
 * stays below it and gets in. Starving a guest who asks once a minute takes as many addresses
 * as the budget has requests a minute, each asking at least once a minute (each is also held to
 * its own per-address limit elsewhere). What the restaurant serves stays bounded: the bucket's
 * rate plus the shares, at most twice the budget.
 */
export class SharedBudget {
  private readonly pool: RateLimiter;
  private readonly owners = new Map<string, { clients: Map<string, ClientUse>; active: number; countedAt: number }>();

  constructor(private readonly perMinute: number) {
    this.pool = new RateLimiter(perMinute / 60, perMinute);
  }

  /** One request of `client` against `owner`'s budget, or 429 with Retry-After. */
  take(owner: string, client: string, nowMs: number): void {
    const o = this.ownerAt(owner, nowMs);
    let c = o.clients.get(client);
    if (!c) {
      c = { used: 0, at: nowMs, seen: nowMs };
      o.clients.set(client, c);
      o.active += 1;
    } else {
      if (nowMs - c.seen > WINDOW_MS) o.active += 1;
      c.used *= Math.exp(-Math.max(0, nowMs - c.at) / WINDOW_MS);
      c.at = Math.max(c.at, nowMs);
      c.seen = Math.max(c.seen, nowMs);
    }
    const share = this.perMinute / Math.max(1, o.active);
    if (this.pool.tryTake(owner, nowMs) || c.used + 1 <= share) {
      c.used += 1;
      return;
    }
    // back when the bucket holds a token again, or when this client's use has decayed below its share
    const decay = share > 1 ? Math.ceil((WINDOW_MS / 1000) * Math.log(c.used / (share - 1))) : WINDOW_MS / 1000;
    throw tooMany(Math.max(1, Math.min(this.pool.secondsUntil(owner, 1), decay)));
  }

  /** The owner's clients, recounted (and the long-quiet ones forgotten) at most once a second. */
  private ownerAt(owner: string, nowMs: number) {
    let o = this.owners.get(owner);
    if (!o) {
      o = { clients: new Map(), active: 0, countedAt: nowMs };
      this.owners.set(owner, o);
    }
    if (nowMs - o.countedAt >= 1000) {
      let active = 0;
      for (const [k, c] of o.clients) {
        // after three windows unseen its use has decayed to a twentieth: forgotten
        if (nowMs - c.seen > 3 * WINDOW_MS) o.clients.delete(k);
        else if (nowMs - c.seen <= WINDOW_MS) active += 1;
      }
      o.active = active;
      o.countedAt = nowMs;
    }
    return o;
  }
}
