import { ApiError } from '../errors.ts';
import type { FailureLog } from './failure-log.ts';

/** The first wait once an (account, address) pair has used its free tries; each failure after doubles it. */
const FIRST_DELAY_MS = 5_000;

/**
 * Failed sign-ins counted over a sliding window per (account, address) pair and per address.
 * Only failures count, so a busy shift signing in on shared tablets is never slowed. A pair
 * past its free tries waits before its next try, the wait doubling with each further failure
 * (5 s, 10 s, 20 s… up to the window): a guesser at one account gets a handful of tries an
 * hour. No account is ever locked: someone guessing from elsewhere does not keep its owner
 * out. An address is stopped outright after a few dozen failures across accounts. The counts
 * are the node's, shared by all its processes (auth/failure-log.ts).
 */
export class SignInThrottle {
  constructor(
    readonly log: FailureLog,
    readonly perAccount: number,
    readonly perIp: number,
    readonly windowMs: number,
  ) {}

  /** Throws 429 while the pair waits out its delay or the address is over its limit. */
  async check(account: string, ip: string): Promise<void> {
    const nowMs = this.log.now();
    const wait = Math.max(await this.pairWait(pairKey(account, ip), nowMs), await this.limitWait(`i:${ip}`, this.perIp, nowMs));
    if (wait > 0) {
      throw new ApiError('rate_limited', 'Too many failed sign-ins. Wait a little and try again.', null, {
        'Retry-After': String(Math.ceil(wait / 1000)),
      });
    }
  }

  fail(account: string, ip: string): Promise<void> {
    return this.log.add([pairKey(account, ip), `i:${ip}`], this.log.now());
  }

  /** A right password clears the pair's count (not the address's). */
  succeed(account: string, ip: string): Promise<void> {
    return this.log.clear(pairKey(account, ip));
  }

  private async pairWait(key: string, nowMs: number): Promise<number> {
    const list = await this.log.since(key, nowMs - this.windowMs);
    const over = list.length - this.perAccount;
    if (over < 0) return 0;
    const delay = Math.min(this.windowMs, FIRST_DELAY_MS * 2 ** over);
    // at most the delay, and the window's limit at most the window: failures stamped ahead of
    // now (a wall clock stepped back, on a log in rows) wait no longer than they would have
    return Math.min(delay, Math.max(0, list[list.length - 1] + delay - nowMs));
  }

  private async limitWait(key: string, limit: number, nowMs: number): Promise<number> {
    const list = await this.log.since(key, nowMs - this.windowMs);
    if (list.length < limit) return 0;
    return Math.min(this.windowMs, list[list.length - limit] + this.windowMs - nowMs);
  }
}

const pairKey = (account: string, ip: string) => `p:${ip}|${account}`;
