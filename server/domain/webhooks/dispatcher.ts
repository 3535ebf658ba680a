import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { Selectable } from 'kysely';
import type { EventsTable } from '../../db/tables/events.table.ts';
import type { WebhookDeliveriesTable } from '../../db/tables/webhook-deliveries.table.ts';
import type { WebhookEndpointsTable } from '../../db/tables/webhook-endpoints.table.ts';
import type { Services } from '../../services.ts';
import { parseRetryAfter, retryDelayMs } from './backoff.ts';
import { webhooksConfig, type WebhooksConfig } from './config.ts';
import { claimDue, dueByEndpoint, nextDueAt, recordAttempt, releaseClaims, settleEvent, type AttemptOutcome } from './deliveries.ts';
import { webhookBody } from './payload.ts';
import { postWebhook } from './send.ts';
import { signatureHeaders } from './signing.ts';

type Delivery = Selectable<WebhookDeliveriesTable>;
type Endpoint = Selectable<WebhookEndpointsTable>;

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
  private unsubscribe: (() => void) | null = null;
  private closed = false;
  private abort = new AbortController();
  private abandoned: string[] = [];

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

  wake(): void {
    if (!this.closed) void this.pump();
  }

  /** Claims and launches whatever is due now (without waiting for the sends); returns how many. */
  pump(): Promise<number> {
    if (this.pumping) {
      this.again = true;
      return this.pumping;
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
        if (!this.closed && this.unsubscribe) await this.armTimer();
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
    this.abort.abort();
    await this.pumping;
    await Promise.allSettled(this.inflight.values());
    await releaseClaims(this.services.db, this.owner, this.abandoned).catch(() => undefined);
  }

  private async armTimer(): Promise<void> {
    const next = await nextDueAt(this.services.db);
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (next === null) return;
    const wait = Math.min(Math.max(next - this.services.clock.now(), 250), 60_000);
    this.timer = setTimeout(() => this.wake(), wait);
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
      const rows = await claimDue(db, dialect, { endpointId, limit: free, nowMs: now, owner: this.owner, leaseUntil: now + this.cfg.leaseMs });
      if (rows.length === 0) continue;
      if (this.closed) {
        await releaseClaims(db, this.owner, rows.map((r) => r.id));
        break;
      }
      const endpoint = await db.selectFrom('webhook_endpoints').selectAll().where('id', '=', endpointId).executeTakeFirst();
      if (!endpoint || endpoint.status !== 'enabled') {
        await this.cancel(rows);
        continue;
      }
      const events = await db.selectFrom('events').selectAll().where('id', 'in', rows.map((r) => r.event_id)).execute();
      const byId = new Map(events.map((e) => [e.id, e]));
      for (const row of rows) {
        const event = byId.get(row.event_id);
        if (event) this.launch(row, endpoint, event);
      }
      capacity -= rows.length;
      launched += rows.length;
    }
    return launched;
  }

  private launch(row: Delivery, endpoint: Endpoint, event: Selectable<EventsTable>): void {
    this.perEndpoint.set(endpoint.id, (this.perEndpoint.get(endpoint.id) ?? 0) + 1);
    const p = this.deliver(row, endpoint, event)
      .catch((err) => this.services.logger.error({ err, delivery: row.id }, 'webhook attempt could not be stored'))
      .finally(() => {
        this.inflight.delete(row.id);
        const left = (this.perEndpoint.get(endpoint.id) ?? 1) - 1;
        if (left > 0) this.perEndpoint.set(endpoint.id, left);
        else this.perEndpoint.delete(endpoint.id);
        this.wake();
      });
    this.inflight.set(row.id, p);
  }

  private async deliver(row: Delivery, endpoint: Endpoint, event: Selectable<EventsTable>): Promise<void> {
    const { clock, db } = this.services;
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
      allowPrivateTargets: this.cfg.allowPrivateTargets,
      signal: this.abort.signal,
    });
    if (this.abort.signal.aborted) {
      this.abandoned.push(row.id);
      return;
    }
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
    // A plain transaction, not tx.run: an attempt is nothing other listeners wait for, and
    // the finally above wakes this dispatcher anyway.
    await db.transaction().execute((trx) => recordAttempt(trx, outcome));
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
