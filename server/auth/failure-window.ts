import { ApiError } from '../errors.ts';
import type { FailureLog } from './failure-log.ts';

/**
 * Failures counted over a sliding window, per key: past `limit` of them within `windowMs`,
 * `check` refuses (429 with Retry-After) until the oldest one leaves the window. The counts are
 * the node's, shared by all its processes (auth/failure-log.ts).
 */
export class FailureWindow {
  constructor(
    readonly log: FailureLog,
    /** keeps this window's keys apart from other limits' in the shared log */
    readonly name: string,
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  async check(key: string, message: string): Promise<void> {
    const wait = await this.waitFor(key, this.log.now());
    if (wait > 0) throw new ApiError('rate_limited', message, null, { 'Retry-After': String(Math.ceil(wait / 1000)) });
  }

  fail(key: string): Promise<void> {
    return this.log.add([`${this.name}:${key}`], this.log.now());
  }

  async waitFor(key: string, nowMs: number): Promise<number> {
    const list = await this.log.since(`${this.name}:${key}`, nowMs - this.windowMs);
    if (list.length < this.limit) return 0;
    // at most the window: failures stamped ahead of now (a wall clock stepped back) wait no longer
    return Math.min(this.windowMs, list[list.length - this.limit] + this.windowMs - nowMs);
  }
}
