import type { Selectable } from 'kysely';
import type { GuestMessagesTable } from '../../db/tables/guest-messages.table.ts';
import type { Services } from '../../services.ts';
import type { MailSender, SmsSender } from './transports.ts';

/** Retry delay after the n-th failed attempt: 30 s, 1 min, 2 min, … capped at one hour. Never given up. */
export const retryDelaySeconds = (attempts: number): number => Math.min(3600, 30 * 2 ** Math.max(0, attempts - 1));

const BATCH = 25;

/**
 * Works off the guest_messages outbox after commit: sends what is due, marks it sent, or
 * records the failure and schedules the next try. Runs are serialised in-process; a wake
 * during a run triggers one more run, so nothing queued during a send waits for the timer.
 */
export class GuestMessageDispatcher {
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(
    private readonly services: Pick<Services, 'db' | 'clock' | 'logger'>,
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
    const now = Math.floor(this.services.clock.now() / 1000);
    const due = await this.services.db
      .selectFrom('guest_messages')
      .selectAll()
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .orderBy('next_attempt_at')
      .orderBy('id')
      .limit(BATCH)
      .execute();
    for (const m of due) await this.attempt(m);
    if (due.length === BATCH) this.again = true;
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
    await this.services.db
      .updateTable('guest_messages')
      .set(
        error === null
          ? { status: 'sent', attempts, sent_at: now, last_error: null, updated: now }
          : { attempts, next_attempt_at: now + retryDelaySeconds(attempts), last_error: error.slice(0, 500), updated: now },
      )
      .where('id', '=', m.id)
      .execute();
    if (error !== null) this.services.logger.warn({ message: m.id, attempts, error }, 'guest message not sent; will retry');
  }
}
