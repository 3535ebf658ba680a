import { describe, expect, it } from 'vitest';
import { ManualClock, systemClock } from '../../server/clock.ts';
import { MemoryFailureLog } from '../../server/auth/failure-log.ts';
import { FailureWindow } from '../../server/auth/failure-window.ts';
import { SignInThrottle } from '../../server/auth/sign-in-throttle.ts';
import { RateLimiter } from '../../server/http/rate-limit.ts';

describe('limits measure elapsed time, not the wall clock', () => {
  it('a rate limiter fed the monotonic clock is untouched by a wall-clock step back', () => {
    // the wall clock stepped back 10 minutes between two requests; the monotonic clock moved on 10 ms
    const wall = new ManualClock(Date.UTC(2026, 10, 2, 12));
    let mono = 1_000;
    const limiter = new RateLimiter(100, 200);
    limiter.take('key', mono);
    wall.advance(-10 * 60_000);
    mono += 10;
    // before, the buckets were fed the wall clock: 200 tokens + (−600 s × 100/s) and 429 for ten minutes
    for (let i = 0; i < 150; i++) limiter.take('key', mono);
    expect(wall.now()).toBeLessThan(Date.UTC(2026, 10, 2, 12));
  });

  it('a source that goes backwards after all refills nothing and never empties a bucket', () => {
    const limiter = new RateLimiter(1, 3);
    limiter.take('k', 600_000);
    limiter.take('k', 0); // ten minutes "back"
    limiter.take('k', 0);
    expect(() => limiter.take('k', 0)).toThrow(/Too many requests/);
    // and forward again: one second after the latest time seen refills one token, no more
    limiter.take('k', 601_000);
    expect(() => limiter.take('k', 601_000)).toThrow(/Too many requests/);
  });

  it('the system clock’s monotonic time never goes backwards between calls', () => {
    let prev = systemClock.monotonic();
    for (let i = 0; i < 1000; i++) {
      const t = systemClock.monotonic();
      expect(t).toBeGreaterThanOrEqual(prev);
      prev = t;
    }
  });

  it('a failure window and the sign-in throttle in memory count on the monotonic clock', async () => {
    let mono = 0;
    const log = new MemoryFailureLog(() => mono);
    const window = new FailureWindow(log, 'pairing', 2, 60_000);
    await window.fail('all');
    await window.fail('all');
    await expect(window.check('all', 'paused')).rejects.toThrow('paused');
    mono += 61_000;
    await expect(window.check('all', 'paused')).resolves.toBeUndefined();

    const throttle = new SignInThrottle(new MemoryFailureLog(() => mono), 1, 10, 3_600_000);
    await throttle.fail('a@b.c', '10.0.0.1');
    await throttle.fail('a@b.c', '10.0.0.1');
    await expect(throttle.check('a@b.c', '10.0.0.1')).rejects.toThrow(/Too many failed sign-ins/);
    mono += 10_001;
    await expect(throttle.check('a@b.c', '10.0.0.1')).resolves.toBeUndefined();
  });

  it('a failure log in rows (wall clock, shared by processes) never waits longer than its window when the clock went back', async () => {
    let wall = Date.UTC(2026, 10, 2, 12);
    // the limits' arithmetic is the same over any log: one in memory fed the wall clock stands in for the rows
    const log = new MemoryFailureLog(() => wall);
    const window = new FailureWindow(log, 'pairing', 1, 60_000);
    await window.fail('all');
    wall -= 24 * 3_600_000; // a day back: the failure now lies a day ahead
    const err = await window.check('all', 'paused').catch((e) => e);
    expect(Number(err.headers['Retry-After'])).toBeLessThanOrEqual(60);
    const throttle = new SignInThrottle(new MemoryFailureLog(() => wall), 0, 1, 3_600_000);
    await throttle.fail('x', '10.0.0.2');
    wall -= 24 * 3_600_000;
    const refused = await throttle.check('x', '10.0.0.2').catch((e) => e);
    expect(Number(refused.headers['Retry-After'])).toBeLessThanOrEqual(3600);
  });
});
