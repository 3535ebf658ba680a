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
