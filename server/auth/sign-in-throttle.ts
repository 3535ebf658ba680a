import { ApiError } from '../errors.ts';

/**
 * Failed sign-ins counted per account and per address over a sliding window. Only failures
 * count, so a busy shift signing in on shared tablets is never slowed; a guesser is stopped
 * after a handful of tries on one account, or a few dozen from one address across accounts.
 */
export class SignInThrottle {
  private failures = new Map<string, number[]>();

  constructor(
    readonly perAccount: number,
    readonly perIp: number,
    readonly windowMs: number,
  ) {}

  /** Throws 429 while either the account or the address is over its limit. */
  check(account: string, ip: string, nowMs: number): void {
    const wait = Math.max(this.waitFor(`a:${account}`, this.perAccount, nowMs), this.waitFor(`i:${ip}`, this.perIp, nowMs));
    if (wait > 0) {
      throw new ApiError('rate_limited', 'Too many failed sign-ins. Wait a few minutes and try again.', null, {
        'Retry-After': String(Math.ceil(wait / 1000)),
      });
    }
  }

  fail(account: string, ip: string, nowMs: number): void {
    for (const key of [`a:${account}`, `i:${ip}`]) {
      const list = this.recent(key, nowMs);
      list.push(nowMs);
      this.failures.set(key, list);
    }
    if (this.failures.size > 50_000) this.sweep(nowMs);
  }

  /** A right password clears the account's count (not the address's). */
  succeed(account: string): void {
    this.failures.delete(`a:${account}`);
  }

  private recent(key: string, nowMs: number): number[] {
    return (this.failures.get(key) ?? []).filter((t) => nowMs - t < this.windowMs);
  }

  private waitFor(key: string, limit: number, nowMs: number): number {
    const list = this.recent(key, nowMs);
    if (list.length < limit) return 0;
    return list[list.length - limit] + this.windowMs - nowMs;
  }

  private sweep(nowMs: number): void {
    for (const [k, list] of this.failures) if (list.every((t) => nowMs - t >= this.windowMs)) this.failures.delete(k);
  }
}
