import cron, { type ScheduledTask } from 'node-cron';
import { monotonicMs } from './clock.ts';
import { purgeIdempotencyKeys } from './http/idempotency.ts';
import type { Services } from './services.ts';

export interface Job {
  name: string;
  /** node-cron expression (seconds field allowed) */
  schedule: string;
  /** `signal` aborts when the server stops: a long job should end early and leave the rest for its next run */
  run(services: Services, signal: AbortSignal): Promise<unknown>;
}

export interface JobStatus {
  name: string;
  schedule: string;
  running: boolean;
  runs: number;
  /** ticks that found the previous run still going */
  skipped: number;
  failures: number;
  /** wall-clock milliseconds */
  lastStartedAt: number | null;
  lastFinishedAt: number | null;
  lastError: string | null;
}

/** How long stop() waits for running jobs before giving up on them. */
const STOP_GRACE_MS = 10_000;

/** The longest the scheduler sleeps: how late it may notice that the wall clock went back. */
const WAKE_MS = 1_000;

/**
 * Owns every periodic job (webhook retry sweep, event retention, idempotency-key cleanup,
 * and whatever features add). A job never overlaps itself: a tick that finds the previous
 * run still going is skipped and logged. Every run is logged with its duration and result.
 * stop() ends the ticks, aborts the jobs' signal and waits for running jobs, so the
 * database can close under nobody.
 *
 * Schedules are cron expressions on the wall clock, but node-cron only parses them here (its
 * tasks are matchers, never started): its own runner replayed every slot a forward step of
 * the clock skipped (a year's step of a 5-second job froze the hub at 100 % CPU) and slept
 * through a backward one. Here a due job runs once however many of its slots the clock
 * skipped, and a clock stepped back only brings each job's next slot nearer.
 */
export class Scheduler {
  private readonly entries = new Map<string, Entry>();
  private timer: NodeJS.Timeout | null = null;
  /** the wall time of the last wake, to see the clock go back */
  private lastWake = 0;
  private running = new Map<string, Promise<void>>();
  private started = false;
  private stopped = false;
  private readonly abort = new AbortController();

  constructor(private readonly services: Services) {
    this.add({ name: 'idempotency-cleanup', schedule: '17 * * * *', run: (s) => purgeIdempotencyKeys(s) });
  }

  /** Every job, in the order added. */
  get jobs(): Job[] {
    return [...this.entries.values()].map((e) => e.job);
  }

  add(job: Job): void {
    if (this.entries.has(job.name)) throw new Error(`a job named ${job.name} already exists`);
    if (!cron.validate(job.schedule)) throw new Error(`job ${job.name}: invalid cron expression '${job.schedule}'`);
    const entry: Entry = {
      job,
      task: null,
      next: 0,
      status: {
        name: job.name,
        schedule: job.schedule,
        running: false,
        runs: 0,
        skipped: 0,
        failures: 0,
        lastStartedAt: null,
        lastFinishedAt: null,
        lastError: null,
      } as JobStatus,
    };
    this.entries.set(job.name, entry);
    if (this.started && !this.stopped) this.schedule(entry, Date.now());
  }

  /** Starts the cron ticks (the CLI's serve does; tests run jobs by hand with runNow). */
  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    const now = Date.now();
    for (const entry of this.entries.values()) this.schedule(entry, now);
    this.lastWake = now;
    this.wake();
  }

  /** Gives a job its matcher and its first slot. */
  private schedule(entry: Entry, now: number): void {
    entry.task = cron.createTask(entry.job.schedule, () => {}, { name: entry.job.name });
    entry.next = nextSlot(entry.task, now);
  }

  /** One wake: runs what is due (once each), then sleeps until the nearest slot, at most WAKE_MS. */
  private wake = (): void => {
    this.timer = null;
    if (this.stopped) return;
    const now = Date.now();
    const back = now < this.lastWake;
    this.lastWake = now;
    let soonest = Infinity;
    for (const entry of this.entries.values()) {
      if (!entry.task) continue;
      if (now >= entry.next) {
        // every slot up to now collapses into this one run
        void this.runNow(entry.job.name);
        entry.next = nextSlot(entry.task, now);
      } else if (back) {
        // a slot computed before the clock went back may lie the whole step away
        entry.next = Math.min(entry.next, nextSlot(entry.task, now));
      }
      soonest = Math.min(soonest, entry.next);
    }
    this.timer = setTimeout(this.wake, Math.max(0, Math.min(WAKE_MS, soonest - Date.now())));
    this.timer.unref();
  };

  /**
   * Runs one job now (tests, and the cron ticks). If that job is already running, nothing
   * new starts: the tick is counted as skipped and the caller gets the run in progress.
   */
  async runNow(name: string): Promise<void> {
    const entry = this.entries.get(name);
    if (!entry) throw new Error(`no job named ${name}`);
    const { job, status } = entry;
    const { logger } = this.services;
    if (this.stopped) {
      logger.debug({ job: name }, 'scheduler stopped; job not run');
      return;
    }
    const current = this.running.get(name);
    if (current) {
      status.skipped++;
      logger.info({ job: name, runningForMs: Math.round(monotonicMs() - (entry.startedMono ?? monotonicMs())) }, 'job still running; tick skipped');
      return current;
    }
    // Durations of real work on the monotonic clock, not the service's (possibly manual) one.
    const started = monotonicMs();
    entry.startedMono = started;
    status.running = true;
    status.lastStartedAt = Date.now();
    status.runs++;
    logger.debug({ job: name }, 'job started');
    // The executor runs the job at once and turns a synchronous throw into a rejection.
    const p = new Promise<unknown>((resolve) => resolve(job.run(this.services, this.abort.signal)))
      .then(
        (result) => {
          status.lastError = null;
          // routine: a job every few seconds would drown what a person needs to read
          logger.debug({ job: name, ms: Math.round(monotonicMs() - started), result }, 'job done');
        },
        (err) => {
          status.failures++;
          status.lastError = err instanceof Error ? err.message : String(err);
          logger.error({ err, job: name, ms: Math.round(monotonicMs() - started) }, 'job failed');
        },
      )
      .finally(() => {
        status.running = false;
        status.lastFinishedAt = Date.now();
        this.running.delete(name);
      });
    this.running.set(name, p);
    return p;
  }

  /** What each job did last (for logs, health pages and tests). */
  status(): JobStatus[] {
    return [...this.entries.values()].map((e) => ({ ...e.status }));
  }

  /** Ends every tick, tells running jobs to stop, and waits (up to a grace period) for them. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const entry of this.entries.values()) {
      if (entry.task) await entry.task.destroy();
      entry.task = null;
    }
    this.abort.abort();
    const pending = [...this.running.entries()];
    if (pending.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), STOP_GRACE_MS);
      timer.unref();
    });
    const outcome = await Promise.race([Promise.allSettled(pending.map(([, p]) => p)), timedOut]);
    clearTimeout(timer);
    if (outcome === 'timeout') {
      this.services.logger.warn({ jobs: [...this.running.keys()] }, 'jobs still running at shutdown; not waiting any longer');
    }
  }
}

interface Entry {
  job: Job;
  status: JobStatus;
  /** the job's schedule as a matcher (a node-cron task never started), while scheduled */
  task: ScheduledTask | null;
  /** the wall time of its next slot */
  next: number;
  /** when its current run started, on the monotonic clock */
  startedMono?: number;
}

/** The first slot of `task`'s schedule after now (node-cron reads the wall clock itself), never at or before `now`. */
function nextSlot(task: ScheduledTask, now: number): number {
  return Math.max(task.getNextRuns(1)[0].getTime(), now + 1);
}
