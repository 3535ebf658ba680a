import { ApiError } from '../errors.ts';

/** The first wait once an (account, address) pair has used its free tries; each failure after doubles it. */
const FIRST_DELAY_MS = 5_000;

/**
 * Failed sign-ins counted over a sliding window per (account, address) pair and per address.
 * Only failures count, so a busy shift signing in on shared tablets is never slowed. A pair
 * past its free tries waits before its next try, the wait doubling with each further failure
 * (5 s, 10 s, 20 s… up to the window): a guesser at one account gets a handful of tries an
 * hour. No account is ever locked: someone guessing from elsewhere does not keep its owner
 * out. An address is stopped outright after a few dozen failures across accounts.
 */
export class SignInThrottle {
  private failures = new Map<string, number[]>();

  constructor(
    readonly perAccount: number,
    readonly perIp: number,
    readonly windowMs: number,
  ) {}

  /** Throws 429 while the pair waits out its delay or the address is over its limit. */
  check(account: string, ip: string, nowMs: number): void {
    const wait = Math.max(this.pairWait(pairKey(account, ip), nowMs), this.limitWait(`i:${ip}`, this.perIp, nowMs));
    if (wait > 0) {
      throw new ApiError('rate_limited', 'Too many failed sign-ins. Wait a little and try again.', null, {
        'Retry-After': String(Math.ceil(wait / 1000)),
      });
    }
  }

  fail(account: string, ip: string, nowMs: number): void {
    for (const key of [pairKey(account, ip), `i:${ip}`]) {
      const list = this.recent(key, nowMs);
      list.push(nowMs);
      this.failures.set(key, list);
    }
    if (this.failures.size > 50_000) this.sweep(nowMs);
  }

  /** A right password clears the pair's count (not the address's). */
  succeed(account: string, ip: string): void {
    this.failures.delete(pairKey(account, ip));
  }

  private recent(key: string, nowMs: number): number[] {
    return (this.failures.get(key) ?? []).filter((t) => nowMs - t < this.windowMs);
  }

  private pairWait(key: string, nowMs: number): number {
    const list = this.recent(key, nowMs);
    const over = list.length - this.perAccount;
    if (over < 0) return 0;
    const delay = Math.min(this.windowMs, FIRST_DELAY_MS * 2 ** over);
    return Math.max(0, list[list.length - 1] + delay - nowMs);
  }

  private limitWait(key: string, limit: number, nowMs: number): number {
    const list = this.recent(key, nowMs);
    if (list.length < limit) return 0;
    return list[list.length - limit] + this.windowMs - nowMs;
  }

  private sweep(nowMs: number): void {
    for (const [k, list] of this.failures) if (list.every((t) => nowMs - t >= this.windowMs)) this.failures.delete(k);
  }
}

const pairKey = (account: string, ip: string) => `p:${ip}|${account}`;
