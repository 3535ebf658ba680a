import { readFileSync } from 'node:fs';

/** Time source for everything the server does, injected so tests can move time. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock tests can set and advance. */
export class ManualClock implements Clock {
  constructor(private ms: number = Date.UTC(2026, 10, 2, 12, 0, 0)) {}
  now(): number {
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
      if (t - readAt >= 100) {
        readAt = t;
        try {
          skew = Number(readFileSync(file, 'utf8').trim()) || 0;
        } catch {
          // no file (yet): no skew
        }
      }
      return t + skew;
    },
  };
}
