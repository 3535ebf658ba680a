import type { Clock } from '../clock.ts';
import type { Logger } from '../logger.ts';

/** A change of the wall clock against the monotonic one larger than this is a step, not drift or a slew. */
export const STEP_MS = 2_000;

/**
 * Watches the wall clock for steps (NTP after a dead CMOS battery, a person setting the time, a
 * PC waking from sleep) and says so once per step, with its size. Nothing here corrects
 * anything: timers, limits and the watchdog measure monotonic time, the scheduler runs a late
 * job once, and sync re-dates what a clock ahead stamped (sync/clock.ts). The line is what an
 * operator reading the log needs to explain timestamps that jump.
 */
export function watchClockSteps(clock: Clock, logger: Logger, everyMs = 1_000): () => void {
  let offset = clock.now() - clock.monotonic();
  const timer = setInterval(() => {
    const now = clock.now();
    const next = now - clock.monotonic();
    const step = next - offset;
    offset = next;
    if (Math.abs(step) < STEP_MS) return;
    logger.warn(
      { step_ms: Math.round(step), now: new Date(now).toISOString() },
      `the system clock was stepped ${step > 0 ? 'forward' : 'back'} by ${describeStep(Math.abs(step))}; timers, rate limits and the scheduler go on unaffected`,
    );
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** A step's size in the largest unit that says it: "2 minutes", "1 year", "3.5 hours". */
export function describeStep(ms: number): string {
  const units: [string, number][] = [
    ['year', 365 * 86_400_000],
    ['day', 86_400_000],
    ['hour', 3_600_000],
    ['minute', 60_000],
    ['second', 1_000],
  ];
  for (const [name, size] of units) {
    // a step is measured a few ms short of what was set: 364.99 days is "1 year"
    if (ms < size * 0.99) continue;
    const n = Math.round((ms / size) * 10) / 10;
    return `${n} ${name}${n === 1 ? '' : 's'}`;
  }
  return `${Math.round(ms)} ms`;
}
