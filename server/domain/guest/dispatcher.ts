import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { GuestMessagesTable } from '../../db/tables/guest-messages.table.ts';
import type { Services } from '../../services.ts';
import type { MailSender, SmsSender } from './transports.ts';

/** Retry delay after the n-th failed attempt: 30 s, 1 min, 2 min, … capped at one hour. Never given up. */
export const retryDelaySeconds = (attempts: number): number => Math.min(3600, 30 * 2 ** Math.max(0, attempts - 1));

/**
 * How long a claim holds a message. Far beyond a send's own timeouts (SMTP about 40 s, SMS
 * 10 s), so only a holder that died or hung loses its claim; short enough that its notice
 * still goes out within minutes from another process.
 */
export const LEASE_SECONDS = 300;

/**
 * Works off the guest_messages outbox after commit: sends what is due, marks it sent, or
 * records the failure and schedules the next try. Runs are serialised in-process; a wake
 * during a run triggers one more run, so nothing queued during a send waits for the timer.
 *
 * Every process on the database runs one of these, and their 15 s ticks fire in the same
 * second: each message is claimed with a lease before it is sent, so one process sends it.
 * A holder that dies leaves the lease to lapse and the message is claimed again (at least
 * once: it may go out twice, never not at all).
 */
export class GuestMessageDispatcher {
  /** identifies this dispatcher's claims */
  readonly owner = `gmsg_${randomUUID()}`;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(
    private readonly services: Pick<Services, 'db' | 'dialect' | 'clock' | 'logger'>,
    public mail: MailSender | null,
    public sms: SmsSender | null,
  ) {}

  get transports() {
    return { email: this.mail !== null, sms: this.sms !== null };
  }

  /** Starts a run unless one is going; returns when the queue has been worked off once. */
  wake(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.runOnce();
        } while (this.again && !this.stopped);
      } catch (err) {
        this.services.logger.error({ err }, 'guest message dispatch failed');
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  stop(): Promise<void> {
    this.stopped = true;
    return this.running ?? Promise.resolve();
  }

  private async runOnce(): Promise<void> {
    // One message per claim: its send starts right away, well inside the lease (a batch
    // sent one by one could outlive its lease), and processes split a backlog between them.
    // A failed message is due only later, so the loop ends when nothing is due now.
    while (!this.stopped) {
      const m = await this.claimNext();
      if (!m) return;
      await this.attempt(m);
    }
  }

  /**
   * Takes the next due message in one statement: atomic on SQLite (one writer at a time),
   * and SKIP LOCKED keeps concurrent PostgreSQL claimers off each other's row. `id = (…)`,
   * not `id in (…)`: PostgreSQL may run an IN subquery again for every row it scans, and
   * with SKIP LOCKED each run can pick another row, so one claim could take the whole queue.
   */
  private async claimNext(): Promise<Selectable<GuestMessagesTable> | undefined> {
    const { db, dialect, clock } = this.services;
    const now = Math.floor(clock.now() / 1000);
    let pick = db
      .selectFrom('guest_messages')
      .select('id')
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
      .orderBy('next_attempt_at')
      .orderBy('id')
      .limit(1);
    if (dialect === 'postgres') pick = pick.forUpdate().skipLocked();
    return db
      .updateTable('guest_messages')
      .set({ lease_until: now + LEASE_SECONDS, lease_owner: this.owner })
      .where('id', '=', pick)
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
      .returningAll()
      .executeTakeFirst();
  }

  private async attempt(m: Selectable<GuestMessagesTable>): Promise<void> {
    let error: string | null = null;
    try {
      if (m.channel === 'email') {
        if (!this.mail) throw new Error('no SMTP server configured');
        await this.mail.send({ to: m.recipient, replyTo: m.reply_to, subject: m.subject ?? '', text: m.body });
      } else {
        if (!this.sms) throw new Error('no SMS gateway configured');
        await this.sms.send(m.recipient, m.body);
      }
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
    }
    const now = Math.floor(this.services.clock.now() / 1000);
    const attempts = m.attempts + 1;
    const release = { lease_until: null, lease_owner: null, updated: now };
    // Only while the claim is ours: if it lapsed and another process took the message over,
    // that process records the outcome, and ours must not overwrite it.
    const r = await this.services.db
      .updateTable('guest_messages')
      .set(
        error === null
          ? { ...release, status: 'sent', attempts, sent_at: now, last_error: null }
          : { ...release, attempts, next_attempt_at: now + retryDelaySeconds(attempts), last_error: error.slice(0, 500) },
      )
      .where('id', '=', m.id)
      .where('lease_owner', '=', this.owner)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0) this.services.logger.warn({ message: m.id, error }, 'guest message claim lost during send; outcome not recorded');
    else if (error !== null) this.services.logger.warn({ message: m.id, attempts, error }, 'guest message not sent; will retry');
  }
}
