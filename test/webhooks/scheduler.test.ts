import cron from 'node-cron';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../server/clock.ts';
import { silentLogger } from '../../server/logger.ts';
import { Scheduler } from '../../server/scheduler.ts';
import type { Services } from '../../server/services.ts';
import { DIALECTS } from '../helpers/db.ts';
import { startHub } from '../helpers/server.ts';

const services = { logger: silentLogger, clock: new ManualClock() } as unknown as Services;

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('scheduler', () => {
  it('owns the idempotency cleanup and refuses duplicate names and bad cron expressions', async () => {
    const s = new Scheduler(services);
    expect(s.jobs.map((j) => j.name)).toEqual(['idempotency-cleanup']);
    expect(() => s.add({ name: 'idempotency-cleanup', schedule: '* * * * *', run: async () => 1 })).toThrow(/already exists/);
    expect(() => s.add({ name: 'bad', schedule: 'every minute', run: async () => 1 })).toThrow(/invalid cron/);
    await expect(s.runNow('nope')).rejects.toThrow(/no job named nope/);
  });

  it('never overlaps a job with itself: a tick during a run is skipped and counted', async () => {
    const s = new Scheduler(services);
    const gate = deferred();
    let calls = 0;
    s.add({
      name: 'slow',
      schedule: '*/5 * * * * *',
      run: async () => {
        calls++;
        await gate.promise;
      },
    });
    const first = s.runNow('slow');
    const second = s.runNow('slow');
    const third = s.runNow('slow');
    expect(calls).toBe(1);
    expect(s.status().find((j) => j.name === 'slow')).toMatchObject({ running: true, runs: 1, skipped: 2 });
    gate.resolve();
    await Promise.all([first, second, third]);
    expect(s.status().find((j) => j.name === 'slow')).toMatchObject({ running: false, runs: 1, skipped: 2 });
    await s.runNow('slow');
    expect(calls).toBe(2);
  });

  it('records a failing run and keeps the job usable', async () => {
    const s = new Scheduler(services);
    let fail = true;
    s.add({
      name: 'flaky',
      schedule: '0 * * * *',
      run: async () => {
        if (fail) throw new Error('boom');
        return 'ok';
      },
    });
    await s.runNow('flaky');
    expect(s.status().find((j) => j.name === 'flaky')).toMatchObject({ failures: 1, lastError: 'boom', running: false });
    fail = false;
    await s.runNow('flaky');
    expect(s.status().find((j) => j.name === 'flaky')).toMatchObject({ runs: 2, failures: 1, lastError: null });
  });

  it('stop() removes every cron task, aborts running jobs, waits for them, and runs nothing afterwards', async () => {
    const s = new Scheduler(services);
    const before = cron.getTasks().size;
    let sawAbort = false;
    let finished = false;
    const started = deferred();
    s.add({
      name: 'long',
      schedule: '0 0 * * *',
      run: async (_s, signal) => {
        started.resolve();
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
        sawAbort = true;
        await new Promise((r) => setImmediate(r));
        finished = true;
      },
    });
    s.start();
    s.add({ name: 'late', schedule: '30 0 * * *', run: async () => 1 });
    expect(cron.getTasks().size).toBe(before + 3);
    const running = s.runNow('long');
    await started.promise;
    await s.stop();
    expect(sawAbort).toBe(true);
    expect(finished).toBe(true);
    expect(cron.getTasks().size).toBe(before);
    let ran = false;
    s.add({ name: 'after-stop', schedule: '* * * * *', run: async () => (ran = true) });
    await s.runNow('after-stop');
    await s.runNow('idempotency-cleanup');
    expect(ran).toBe(false);
    expect(cron.getTasks().size).toBe(before);
    await running;
  });
});

describe('scheduler and a stepped wall clock', () => {
  afterEach(() => vi.useRealTimers());

  /** A started scheduler with one 5-second job, under fake timers whose Date a test can step without firing anything. */
  function fiveSecondJob() {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'], now: Date.UTC(2026, 10, 2, 12, 0, 1) });
    const s = new Scheduler(services);
    let runs = 0;
    s.add({ name: 'five', schedule: '*/5 * * * * *', run: async () => void runs++ });
    s.start();
    return { s, runs: () => runs };
  }

  it('a step forward of a year runs a due job once, then on its schedule (node-cron walked six million skipped slots)', async () => {
    const { s, runs } = fiveSecondJob();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(runs()).toBe(2);
    vi.setSystemTime(Date.now() + 365 * 86_400_000);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runs()).toBe(3);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(runs()).toBe(5);
    await s.stop();
  });

  it('a step back of ten minutes does not wait the step out: the job runs at its next slot from the new time', async () => {
    const { s, runs } = fiveSecondJob();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(runs()).toBe(1);
    vi.setSystemTime(Date.now() - 10 * 60_000);
    await vi.advanceTimersByTimeAsync(6_000);
    expect(runs()).toBe(2);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(runs()).toBe(4);
    await s.stop();
  });
});

describe.each(DIALECTS)('server shutdown on %s', (dialect) => {
  it('close() waits for a running job before the database closes', async () => {
    const hub = await startHub(dialect);
    let queriedAfterAbort = false;
    const started = deferred();
    hub.server.scheduler.add({
      name: 'db-user',
      schedule: '0 0 * * *',
      run: async (s, signal) => {
        started.resolve();
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
        // still allowed to finish its work against the database
        await s.db.selectFrom('restaurants').select('id').execute();
        queriedAfterAbort = true;
      },
    });
    const run = hub.server.scheduler.runNow('db-user');
    await started.promise;
    await hub.close();
    await run;
    expect(queriedAfterAbort).toBe(true);
    expect(hub.server.scheduler.status().find((j) => j.name === 'db-user')).toMatchObject({ failures: 0, running: false });
  });
});
