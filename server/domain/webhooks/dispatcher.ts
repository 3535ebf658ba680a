import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { Selectable } from 'kysely';
import type { EventsTable } from '../../db/tables/events.table.ts';
import type { WebhookDeliveriesTable } from '../../db/tables/webhook-deliveries.table.ts';
import type { WebhookEndpointsTable } from '../../db/tables/webhook-endpoints.table.ts';
import type { Services } from '../../services.ts';
import { parseRetryAfter, retryDelayMs } from './backoff.ts';
import { webhooksConfig, type WebhooksConfig } from './config.ts';
import { claimDue, dueByEndpoint, fanOutCount, nextDueAt, recordAttempts, releaseClaims, settleEvent, type AttemptOutcome } from './deliveries.ts';
import { webhookBody } from './payload.ts';
import { mayReachPrivate } from './url-policy.ts';
import { postWebhook } from './send.ts';
import { signatureHeaders } from './signing.ts';

type Delivery = Selectable<WebhookDeliveriesTable>;
/** Wake-ups this close together are served by one pass. */
const WAKE_COALESCE_MS = 5;
/** Attempts finishing within this long are stored in one transaction. */
const FLUSH_AFTER_MS = 5;
type Target = Pick<Selectable<WebhookEndpointsTable>, 'id' | 'url' | 'secret' | 'previous_secret' | 'previous_secret_expires' | 'livemode'>;

/**
 * Sends what the database says is due. Nothing lives only in memory: a delivery is claimed
 * with a lease, sent, and its attempt stored; a crash leaves the claim to lapse and the row
 * is due again (at least once). It is woken after every commit, by a timer for the next
 * retry, and by the scheduler's sweep. A slow or dead receiver holds at most
 * `perEndpointConcurrency` of the `maxParallel` slots, so the others keep flowing.
 */
export class WebhookDispatcher {
  readonly cfg: WebhooksConfig;
  /** identifies this process's claims */
  readonly owner = `disp_${randomUUID()}`;
  private inflight = new Map<string, Promise<void>>();
  private perEndpoint = new Map<string, number>();
  private pumping: Promise<number> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private wakeTimer: NodeJS.Timeout | null = null;
  private timerStale = true;
  private timerFanOut = -1;
  private unsubscribe: (() => void) | null = null;
  private closed = false;
  private abort = new AbortController();
  private abandoned: string[] = [];
  private outcomes: { outcome: AttemptOutcome; done: () => void }[] = [];
  private flushQueued = false;
  private flushChain: Promise<void> = Promise.resolve();

  constructor(private readonly services: Services) {
    this.cfg = webhooksConfig(services.config);
    // every request in flight listens on it
    setMaxListeners(0, this.abort.signal);
  }

  start(): void {
    if (this.closed || this.unsubscribe) return;
    // The wake-up carries nothing; the pump reads what is due, so coalesced wake-ups lose nothing.
    this.unsubscribe = this.services.tx.onCommit(() => this.wake());
    this.wake();
  }

  /** Runs a pump soon; wake-ups within a few milliseconds share it, so a burst is claimed in batches. */
  wake(): void {
    if (this.closed || this.wakeTimer) return;
    this.wakeTimer = setTimeout(() => {
      this.wakeTimer = null;
      void this.pump();
    }, WAKE_COALESCE_MS);
  }

  /** Claims and launches whatever is due now (without waiting for the sends); returns how many. */
  pump(): Promise<number> {
    if (this.pumping) {
      // Join the pass in progress; if it had already made its last claim when asked,
      // `again` is still set once it ends, and a new pass follows.
      this.again = true;
      return this.pumping.then((n) => (this.again && !this.closed ? this.pump().then((m) => n + m) : n));
    }
    this.pumping = (async () => {
      let launched = 0;
      try {
        do {
          this.again = false;
          // better-sqlite3 answers synchronously, so a chain of queries never reaches the
          // event loop's I/O phase: yield first, letting requests and receivers' answers
          // through (and letting a burst of commits coalesce into this one pass).
          await new Promise((resolve) => setImmediate(resolve));
          launched += await this.claimAndLaunch();
        } while (this.again && !this.closed);
        // While sends are in flight their completions wake the pump; the timer is for idle times.
        if (!this.closed && this.unsubscribe && this.inflight.size === 0) await this.armTimer();
      } catch (err) {
        if (!this.closed) this.services.logger.error({ err }, 'webhook dispatch failed; retrying on the next wake-up');
      } finally {
        this.pumping = null;
      }
      return launched;
    })();
    return this.pumping;
  }

  /** Sends until nothing is due and nothing is in flight (the scheduler's sweep; tests await it). */
  async drain(signal?: AbortSignal): Promise<number> {
    let total = 0;
    let onAbort = () => {};
    const aborted = new Promise<void>((resolve) => (onAbort = resolve));
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      while (!this.closed && !signal?.aborted) {
        const n = await this.pump();
        total += n;
        if (this.inflight.size === 0) {
          if (n === 0) break;
          continue;
        }
        await Promise.race([...this.inflight.values(), aborted]);
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
    return total;
  }

  get inFlight(): number {
    return this.inflight.size;
  }

  /** Stops sending: aborts requests in flight and hands their claims back (they are re-sent later). */
  async stop(): Promise<void> {
    this.closed = true;
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (this.timer) clearTimeout(this.timer);
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    this.abort.abort();
    await this.pumping;
    await Promise.allSettled(this.inflight.values());
    await releaseClaims(this.services.db, this.owner, this.abandoned).catch(() => undefined);
  }

  private async armTimer(): Promise<void> {
    // Most commits change nothing the timer depends on (no new delivery, no stored attempt):
    // keep the armed timer instead of asking the database again.
    if (!this.timerStale && fanOutCount() === this.timerFanOut) return;
    this.timerStale = false;
    this.timerFanOut = fanOutCount();
    const next = await nextDueAt(this.services.db);
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (next === null) return;
    const wait = Math.min(Math.max(next - this.services.clock.now(), 250), 60_000);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.timerStale = true;
      this.wake();
    }, wait);
    this.timer.unref();
  }

  private async claimAndLaunch(): Promise<number> {
    const { db, dialect, clock } = this.services;
    let capacity = this.cfg.maxParallel - this.inflight.size;
    if (capacity <= 0) return 0;
    const now = clock.now();
    const due = await dueByEndpoint(db, now);
    // Random order: when slots are short, no endpoint always comes first.
    for (let i = due.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [due[i], due[j]] = [due[j], due[i]];
    }
    let launched = 0;
    for (const { endpointId } of due) {
      if (this.closed || capacity <= 0) break;
      const free = Math.min(capacity, this.cfg.perEndpointConcurrency - (this.perEndpoint.get(endpointId) ?? 0));
      if (free <= 0) continue;
      // What this process is still sending is never claimed again by it: not when its claim
      // lapsed (a stalled process, a clock moved far ahead), and not when a resend requeued
      // it. The attempt in flight then stores its outcome only if it still holds the claim
      // (else into the history only), and the delivery is claimed afresh once it is done.
      const rows = await claimDue(db, dialect, {
        endpointId,
        limit: free,
        nowMs: now,
        owner: this.owner,
        leaseUntil: now + this.cfg.leaseMs,
        exclude: [...this.inflight.keys()],
      });
      if (rows.length === 0) continue;
      if (this.closed) {
        await releaseClaims(db, this.owner, rows.map((r) => r.id));
        break;
      }
      // The events and their endpoint's current URL and secrets, in one query.
      const found = await db
        .selectFrom('events')
        .innerJoin('webhook_endpoints as w', (j) => j.on('w.id', '=', endpointId))
        .selectAll('events')
        .select([
          'w.url as w_url',
          'w.status as w_status',
          'w.secret as w_secret',
          'w.previous_secret as w_previous_secret',
          'w.previous_secret_expires as w_previous_secret_expires',
          'w.livemode as w_livemode',
        ])
        .where('events.id', 'in', rows.map((r) => r.event_id))
        .execute();
      if (found.length === 0 || found[0].w_status !== 'enabled') {
        await this.cancel(rows);
        continue;
      }
      const f = found[0];
      const endpoint: Target = {
        id: endpointId,
        url: f.w_url,
        secret: f.w_secret,
        previous_secret: f.w_previous_secret,
        previous_secret_expires: f.w_previous_secret_expires,
        livemode: f.w_livemode,
      };
      const byId = new Map(found.map((e) => [e.id, e]));
      for (const row of rows) {
        const event = byId.get(row.event_id);
        if (event) this.launch(row, endpoint, event);
      }
      capacity -= rows.length;
      launched += rows.length;
    }
    return launched;
  }

  private launch(row: Delivery, endpoint: Target, event: Selectable<EventsTable>): void {
    this.perEndpoint.set(endpoint.id, (this.perEndpoint.get(endpoint.id) ?? 0) + 1);
    // The endpoint's slot frees as soon as its answer is in; the delivery stays claimed (and
    // in flight for drain()) until its attempt is stored.
    let freed = false;
    const free = () => {
      if (freed) return;
      freed = true;
      const left = (this.perEndpoint.get(endpoint.id) ?? 1) - 1;
      if (left > 0) this.perEndpoint.set(endpoint.id, left);
      else this.perEndpoint.delete(endpoint.id);
      this.wake();
    };
    const p = this.deliver(row, endpoint, event, free)
      .catch((err) => this.services.logger.error({ err, delivery: row.id }, 'webhook attempt could not be stored'))
      .finally(() => {
        this.inflight.delete(row.id);
        free();
        this.wake();
      });
    this.inflight.set(row.id, p);
  }

  private async deliver(row: Delivery, endpoint: Target, event: Selectable<EventsTable>, answered: () => void): Promise<void> {
    const { clock } = this.services;
    const attemptedAtMs = clock.now();
    const body = webhookBody(event);
    const secrets = [endpoint.secret];
    if (endpoint.previous_secret && (endpoint.previous_secret_expires ?? 0) * 1000 > attemptedAtMs) secrets.push(endpoint.previous_secret);
    // webhook-timestamp is checked by the receiver against its own clock (5 min tolerance in
    // Standard Webhooks), so it is the real time of sending, not the service's domain clock.
    const headers = signatureHeaders(secrets, event.id, Math.floor(Date.now() / 1000), body);
    const r = await postWebhook({
      url: endpoint.url,
      body,
      headers,
      timeoutMs: this.cfg.timeoutMs,
      allowPrivateTargets: mayReachPrivate(this.cfg, endpoint.livemode),
      signal: this.abort.signal,
    });
    if (this.abort.signal.aborted) {
      this.abandoned.push(row.id);
      return;
    }
    answered();
    const succeeded = r.status !== null && r.status >= 200 && r.status < 300;
    const outcome: AttemptOutcome = {
      deliveryId: row.id,
      restaurantId: row.restaurant_id,
      eventId: row.event_id,
      endpointId: endpoint.id,
      owner: this.owner,
      url: endpoint.url,
      attemptedAtMs,
      responseStatus: r.status,
      durationMs: r.durationMs,
      error: r.error ?? (succeeded ? null : `The receiver answered ${r.status}.`),
      succeeded,
      status: 'delivered',
      nextAttemptAt: null,
      disableEndpoint: false,
    };
    if (!succeeded) {
      const delay = r.status === 410 ? null : retryDelayMs(row.round_attempts + 1);
      if (delay === null) {
        outcome.status = 'failed';
        outcome.disableEndpoint = r.status === 410;
      } else {
        const asked = r.status === 429 || r.status === 503 ? parseRetryAfter(r.retryAfter, clock.now()) : null;
        outcome.status = 'pending';
        outcome.nextAttemptAt = clock.now() + Math.max(delay, asked ?? 0);
      }
    }
    await this.store(outcome);
  }

  /**
   * Queues an attempt's outcome for the next batch write. Attempts that finish in the same
   * few milliseconds share one transaction; a crash before it commits only means
   * those deliveries are sent again once their claims lapse (at least once).
   */
  private store(outcome: AttemptOutcome): Promise<void> {
    return new Promise((resolve) => {
      this.outcomes.push({ outcome, done: resolve });
      if (this.flushQueued) return;
      this.flushQueued = true;
      setTimeout(() => {
        this.flushQueued = false;
        this.flushChain = this.flushChain.then(() => this.flush());
      }, FLUSH_AFTER_MS);
    });
  }

  private async flush(): Promise<void> {
    const batch = this.outcomes.splice(0);
    if (batch.length === 0) return;
    try {
      // A plain transaction, not tx.run: attempts are nothing other listeners wait for, and
      // each finished delivery wakes this dispatcher anyway.
      await this.services.db.transaction().execute((trx) => recordAttempts(trx, batch.map((b) => b.outcome)));
    } catch (err) {
      this.services.logger.error({ err, attempts: batch.length }, 'webhook attempts could not be stored; they will be sent again');
    } finally {
      this.timerStale = true;
      for (const b of batch) b.done();
    }
  }

  private async cancel(rows: Delivery[]): Promise<void> {
    const now = Math.floor(this.services.clock.now() / 1000);
    await this.services.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('webhook_deliveries')
        .set({ status: 'cancelled', next_attempt_at: null, lease_until: null, lease_owner: null, updated: now })
        .where('id', 'in', rows.map((r) => r.id))
        .where('lease_owner', '=', this.owner)
        .execute();
      for (const r of rows) await settleEvent(trx, r.restaurant_id, r.event_id, now);
    });
  }
}
