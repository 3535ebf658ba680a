import { randomInt } from 'node:crypto';
import os from 'node:os';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { ulid } from 'ulid';
import type { Logger } from '../logger.ts';
import type { Dialect } from './database.ts';
import { LOCKS } from './row-locks.ts';
import type { DB } from './schema.ts';

interface ProcessRow {
  id: string;
  host: string;
  pid: number;
  lock_key: number;
}

/**
 * This server process as the other processes on the same database see it: a row in
 * `server_processes`, and a way to tell whether the process behind any row is still alive.
 * Work a process claims (Idempotency-Keys) names it, so when it dies its claims are freed at
 * once instead of after a timeout.
 *
 * - PostgreSQL (the cloud; processes on several machines): a live process holds a session
 *   advisory lock on a connection of its own. When the process dies, even by kill -9, its
 *   socket closes and PostgreSQL drops the lock; a machine that vanishes is noticed by TCP
 *   keepalive within about 15 s. No clocks are compared, so clock skew between machines
 *   does not matter.
 * - SQLite (the hub): every process on the file is on this machine, so a process is alive
 *   while its pid is. A pid that is ours but not our row belonged to an earlier process that
 *   got the same pid (a container restarted).
 */
export class ServerProcess {
  readonly id = `proc_${ulid().toLowerCase()}`;
  private registered: Promise<void> | null = null;
  private lockClient: pg.Client | null = null;
  private closed = false;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
    private readonly databaseUrl: string | null,
    private readonly logger: Logger,
  ) {}

  /** Writes this process's row (PostgreSQL: takes its lock first), once, before its first claim. */
  register(): Promise<void> {
    this.registered ??= this.insertRow().catch((err) => {
      this.registered = null;
      throw err;
    });
    return this.registered;
  }

  private async insertRow(): Promise<void> {
    const lock_key = this.dialect === 'postgres' ? await this.takeLock() : 0;
    const row = { id: this.id, host: os.hostname(), pid: process.pid, lock_key, started_at: Date.now() };
    // a row a sweeper removed while our lock connection was down is simply written again
    await this.db
      .insertInto('server_processes')
      .values(row)
      .onConflict((oc) => oc.column('id').doUpdateSet({ lock_key }))
      .execute();
  }

  private async takeLock(): Promise<number> {
    const client = new pg.Client({ connectionString: this.databaseUrl!, keepAlive: true });
    client.on('error', () => {});
    client.on('end', () => {
      // lost: other processes now take us for dead and may free our claims (whose final
      // write then fails rather than doubling a request); the next claim registers again
      if (this.lockClient === client) {
        this.lockClient = null;
        if (!this.closed) {
          this.registered = null;
          this.logger.warn({ process: this.id }, 'lost the connection holding this process lock');
        }
      }
    });
    await client.connect();
    try {
      await client.query('set tcp_keepalives_idle = 5; set tcp_keepalives_interval = 2; set tcp_keepalives_count = 3');
      for (;;) {
        const key = randomInt(1, 2 ** 31 - 1);
        const r = await client.query<{ ok: boolean }>('select pg_try_advisory_lock($1::int, $2::int) as ok', [LOCKS.serverProcess, key]);
        if (r.rows[0].ok) {
          this.lockClient = client;
          return key;
        }
      }
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
  }

  /** Whether the process named by a claim is known to be dead (null: a claim without an owner). */
  async isGone(owner: string | null): Promise<boolean> {
    if (owner === null) return false;
    if (owner === this.id) return this.closed;
    const row = await this.db.selectFrom('server_processes').select(['id', 'host', 'pid', 'lock_key']).where('id', '=', owner).executeTakeFirst();
    return !row || !(await this.alive(row));
  }

  private async alive(row: ProcessRow): Promise<boolean> {
    if (this.dialect === 'postgres') {
      const r = await sql<{ held: boolean }>`
        select exists (
          select 1 from pg_locks
          where locktype = 'advisory' and granted and objsubid = 2
            and database = (select oid from pg_database where datname = current_database())
            and classid::int8 = ${LOCKS.serverProcess} and objid::int8 = ${row.lock_key}
        ) as held`.execute(this.db);
      return r.rows[0].held;
    }
    if (row.host !== os.hostname()) return true; // cannot tell: the claim waits out its window
    if (row.pid === process.pid) return false; // our pid, not our row
    try {
      process.kill(row.pid, 0);
      return true;
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === 'EPERM'; // alive, someone else's
    }
  }

  /**
   * At start: frees the claims of every process that is gone and forgets it, so a request the
   * dead process never answered can be retried at once with its Idempotency-Key.
   */
  async sweep(): Promise<number> {
    const rows = await this.db.selectFrom('server_processes').select(['id', 'host', 'pid', 'lock_key']).execute();
    let freed = 0;
    for (const row of rows) {
      if (row.id === this.id || (await this.alive(row))) continue;
      const r = await this.db.deleteFrom('idempotency_keys').where('owner', '=', row.id).where('state', '=', 'in_flight').executeTakeFirst();
      await this.db.deleteFrom('server_processes').where('id', '=', row.id).execute();
      freed += Number(r.numDeletedRows);
    }
    if (freed > 0) this.logger.info({ freed }, 'freed the Idempotency-Keys of processes that died');
    return freed;
  }

  /** On a clean stop: no request of ours runs any more, so our row and lock go. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.registered) {
      await this.registered.catch(() => undefined);
      await this.db.deleteFrom('server_processes').where('id', '=', this.id).execute().catch(() => undefined);
    }
    const client = this.lockClient;
    this.lockClient = null;
    await client?.end().catch(() => undefined);
  }
}
