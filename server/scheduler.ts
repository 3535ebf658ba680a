import cron, { type ScheduledTask } from 'node-cron';
import { purgeIdempotencyKeys } from './http/idempotency.ts';
import type { Services } from './services.ts';

export interface Job {
  name: string;
  /** node-cron expression (seconds field allowed) */
  schedule: string;
  run(services: Services): Promise<unknown>;
}

/**
 * Owns every periodic job. A job never overlaps itself: a tick that finds the previous run
 * still going is skipped and logged. stop() ends them all on shutdown.
 */
export class Scheduler {
  readonly jobs: Job[] = [
    { name: 'idempotency-cleanup', schedule: '17 * * * *', run: (s) => purgeIdempotencyKeys(s) },
  ];
  private tasks: ScheduledTask[] = [];
  private running = new Map<string, Promise<void>>();

  constructor(private readonly services: Services) {}

  add(job: Job): void {
    this.jobs.push(job);
  }

  start(): void {
    for (const job of this.jobs) {
      this.tasks.push(cron.schedule(job.schedule, () => void this.runNow(job.name), { name: job.name, noOverlap: true }));
    }
  }

  /** Runs one job now (tests, and the cron ticks); skipped if that job is already running. */
  async runNow(name: string): Promise<void> {
    const job = this.jobs.find((j) => j.name === name);
    if (!job) throw new Error(`no job named ${name}`);
    const current = this.running.get(name);
    if (current) {
      this.services.logger.debug({ job: name }, 'job still running; tick skipped');
      return current;
    }
    const started = Date.now();
    const p = job
      .run(this.services)
      .then((result) => this.services.logger.debug({ job: name, ms: Date.now() - started, result }, 'job done'))
      .catch((err) => this.services.logger.error({ err, job: name }, 'job failed'))
      .finally(() => this.running.delete(name));
    this.running.set(name, p);
    return p;
  }

  stop(): void {
    for (const t of this.tasks) void t.stop();
    this.tasks = [];
  }
}
