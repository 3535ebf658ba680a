import { ApiError } from '../errors.ts';

/**
 * Failures counted over a sliding window, per key: past `limit` of them within `windowMs`,
 * `check` refuses (429 with Retry-After) until the oldest one leaves the window. In memory:
 * each server process counts its own.
 */
export class FailureWindow {
  private failures = new Map<string, number[]>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  check(key: string, nowMs: number, message: string): void {
    const wait = this.waitFor(key, nowMs);
    if (wait > 0) throw new ApiError('rate_limited', message, null, { 'Retry-After': String(Math.ceil(wait / 1000)) });
  }

  fail(key: string, nowMs: number): void {
    const list = this.recent(key, nowMs);
    list.push(nowMs);
    this.failures.set(key, list);
    if (this.failures.size > 50_000) {
      for (const [k, l] of this.failures) if (l.every((t) => nowMs - t >= this.windowMs)) this.failures.delete(k);
    }
  }

  private recent(key: string, nowMs: number): number[] {
    return (this.failures.get(key) ?? []).filter((t) => nowMs - t < this.windowMs);
  }

  waitFor(key: string, nowMs: number): number {
    const list = this.recent(key, nowMs);
    if (list.length < this.limit) return 0;
    return list[list.length - this.limit] + this.windowMs - nowMs;
  }
}
