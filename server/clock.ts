import { readFileSync } from 'node:fs';

/**
 * Time source for everything the server does, injected so tests can move time. Two kinds of
 * time: `now()` is the wall clock, for what is written down (a row's timestamps, a token's
 * expiry); `monotonic()` is for what is measured (a rate limit's refill, a throttle's window, a
 * timeout), so a wall clock stepped by NTP, by Windows after a dead CMOS battery or by a person
 * neither refuses every request (stepped back) nor forgives every limit (stepped forward).
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /** Milliseconds from an arbitrary origin, never stepped: only differences mean anything. */
  monotonic(): number;
}

/** The process's monotonic milliseconds (CLOCK_MONOTONIC): the same origin on every thread of the process. */
export const monotonicMs = (): number => Number(process.hrtime.bigint()) / 1e6;

export const systemClock: Clock = { now: () => Date.now(), monotonic: monotonicMs };

/** A clock tests can set and advance. */
export class ManualClock implements Clock {
  constructor(private ms: number = Date.UTC(2026, 10, 2, 12, 0, 0)) {}
  now(): number {
    return this.ms;
  }
  /** The manual time too: a test moves both with advance() (set() backwards is a wall-clock step, and limits see it). */
  monotonic(): number {
    return this.ms;
  }
  set(ms: number | Date): void {
    this.ms = typeof ms === 'number' ? ms : ms.getTime();
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

export const toUnixSeconds = (ms: number): number => Math.floor(ms / 1000);

/**
 * The clock of a `comanda` process. COMANDA_CLOCK_SKEW_FILE (tests of real processes only)
 * names a file holding milliseconds to add to the system clock, read again at most every
 * 100 ms: a test steps a running process's clock the way NTP or a person would.
 */
export function processClock(env: NodeJS.ProcessEnv = process.env): Clock {
  const file = env.COMANDA_CLOCK_SKEW_FILE;
  if (!file) return systemClock;
  let skew = 0;
  let readAt = -Infinity;
  return {
    now() {
      const t = Date.now();
      const m = monotonicMs();
      if (m - readAt >= 100) {
        readAt = m;
        try {
          skew = Number(readFileSync(file, 'utf8').trim()) || 0;
        } catch {
          // no file (yet): no skew
        }
      }
      return t + skew;
    },
    // a skew steps the wall clock only, as NTP does
    monotonic: monotonicMs,
  };
}
