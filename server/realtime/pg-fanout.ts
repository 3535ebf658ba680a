import { sql } from 'kysely';
import pg from 'pg';
import type { Services } from '../services.ts';
import { NOTIFY_CHANNEL } from './options.ts';

const CREDENTIALS_PREFIX = 'credentials:';

/**
 * Cloud fan-out: every process LISTENs on one channel over its own connection and NOTIFYs it
 * after each of its commits. The notification carries nothing; each process then reads the
 * shared change log from its own cursor, so a lost notification costs only latency (the
 * safety poll picks it up).
 */
export class PgFanout {
  private client: pg.Client | null = null;
  private stopped = false;
  private reconnect: NodeJS.Timeout | null = null;
  private sending = false;
  private again = false;

  constructor(
    private readonly services: Services,
    private readonly url: string,
    private readonly onWake: () => void,
    /** another process ended a credential the change log does not show (a staff session) */
    private readonly onCredentials: (restaurantId: string) => void = () => {},
  ) {}

  async start(): Promise<void> {
    await this.connect();
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (msg) => {
      if (msg.channel !== NOTIFY_CHANNEL) return;
      if (msg.payload?.startsWith(CREDENTIALS_PREFIX)) this.onCredentials(msg.payload.slice(CREDENTIALS_PREFIX.length));
      else this.onWake();
    });
    client.on('error', (err) => {
      this.services.logger.warn({ err }, 'realtime: LISTEN connection lost');
      this.retry();
    });
    client.on('end', () => this.retry());
    try {
      await client.connect();
      await client.query(`LISTEN ${NOTIFY_CHANNEL}`);
      this.client = client;
      // whatever committed while we were not listening
      this.onWake();
    } catch (err) {
      this.services.logger.warn({ err }, 'realtime: cannot LISTEN');
      client.end().catch(() => {});
      this.retry();
    }
  }

  private retry(): void {
    this.client = null;
    if (this.stopped || this.reconnect) return;
    this.reconnect = setTimeout(() => {
      this.reconnect = null;
      void this.connect();
    }, 1000);
    this.reconnect.unref();
  }

  /** After a local commit: wake the other processes. Commits in a burst share one NOTIFY in flight. */
  notify(): void {
    if (this.stopped) return;
    if (this.sending) {
      this.again = true;
      return;
    }
    this.sending = true;
    sql`select pg_notify(${NOTIFY_CHANNEL}, '')`
      .execute(this.services.db)
      .catch((err) => this.services.logger.warn({ err }, 'realtime: NOTIFY failed'))
      .finally(() => {
        this.sending = false;
        if (this.again) {
          this.again = false;
          this.notify();
        }
      });
  }

  /** Tells every process (this one too) that a credential of the restaurant ended. */
  notifyCredentials(restaurantId: string): void {
    if (this.stopped) return;
    sql`select pg_notify(${NOTIFY_CHANNEL}, ${CREDENTIALS_PREFIX + restaurantId})`
      .execute(this.services.db)
      .catch((err) => this.services.logger.warn({ err }, 'realtime: NOTIFY failed'));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.reconnect) clearTimeout(this.reconnect);
    const c = this.client;
    this.client = null;
    if (c) await c.end().catch(() => {});
    // let a NOTIFY in flight finish before the pool closes
    while (this.sending) await new Promise((r) => setTimeout(r, 5));
  }
}
