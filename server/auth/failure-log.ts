import type { Kysely } from 'kysely';
import type { Clock } from '../clock.ts';
import type { DB } from '../db/schema.ts';

/**
 * Where failed tries (sign-ins, PINs, pairing codes) are counted. A cloud runs as several
 * processes behind one address: counted in each process's memory, every limit would be
 * multiplied by their number, so on PostgreSQL they are rows every process reads
 * (`auth_failures`, local to the node, never synced). The hub is one process on SQLite, whose
 * single connection may be inside the request's own transaction (a failure written there would
 * be rolled back with the refusal): it counts in memory.
 *
 * Each log keeps its own time: in memory the clock's monotonic milliseconds (a wall clock
 * stepped back would hold every failure in the window for as long as the step); in rows the
 * wall clock, the one time base several processes (several machines) share, and the limits
 * reading it never wait longer than their window however the clock was stepped.
 */
export interface FailureLog {
  /** the time failures are written with and windows measured in */
  now(): number;
  add(keys: readonly string[], atMs: number): Promise<void>;
  /** the times of `key`'s failures from `fromMs` on, oldest first */
  since(key: string, fromMs: number): Promise<number[]>;
  clear(key: string): Promise<void>;
}

/** Rows older than this are swept away: longer than any window that reads them. */
const KEEP_MS = 24 * 60 * 60 * 1000;

export class MemoryFailureLog implements FailureLog {
  private failures = new Map<string, number[]>();
  constructor(readonly now: () => number) {}

  async add(keys: readonly string[], atMs: number): Promise<void> {
    for (const key of keys) this.failures.set(key, [...(this.failures.get(key) ?? []).filter((t) => atMs - t < KEEP_MS), atMs]);
    if (this.failures.size > 50_000) {
      for (const [k, l] of this.failures) if (l.every((t) => atMs - t >= KEEP_MS)) this.failures.delete(k);
    }
  }

  async since(key: string, fromMs: number): Promise<number[]> {
    return (this.failures.get(key) ?? []).filter((t) => t > fromMs);
  }

  async clear(key: string): Promise<void> {
    this.failures.delete(key);
  }
}

export class DbFailureLog implements FailureLog {
  private added = 0;
  constructor(
    private readonly db: Kysely<DB>,
    readonly now: () => number,
  ) {}

  async add(keys: readonly string[], atMs: number): Promise<void> {
    await this.db.insertInto('auth_failures').values(keys.map((key) => ({ key, at: atMs }))).execute();
    // now and then, not on every failure: a sweep is one indexed delete
    if (++this.added % 100 === 1) await this.db.deleteFrom('auth_failures').where('at', '<', atMs - KEEP_MS).execute();
  }

  async since(key: string, fromMs: number): Promise<number[]> {
    const rows = await this.db.selectFrom('auth_failures').select('at').where('key', '=', key).where('at', '>', fromMs).orderBy('at').execute();
    return rows.map((r) => Number(r.at));
  }

  async clear(key: string): Promise<void> {
    await this.db.deleteFrom('auth_failures').where('key', '=', key).execute();
  }
}

const logs = new WeakMap<object, FailureLog>();

/** The failure log of a node: one per database handle, shared by every limit that counts failures. */
export function failureLogFor(services: { db: Kysely<DB>; dialect: 'sqlite' | 'postgres'; clock: Clock }): FailureLog {
  let log = logs.get(services.db);
  const { clock } = services;
  if (!log) logs.set(services.db, (log = services.dialect === 'postgres' ? new DbFailureLog(services.db, () => clock.now()) : new MemoryFailureLog(() => clock.monotonic())));
  return log;
}
