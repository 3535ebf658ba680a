import { sql } from 'kysely';
import { decodeTime } from 'ulid';
import type { Dialect } from '../../db/database.ts';
import { updateRecord, type Executor } from '../../db/records.ts';
import { ApiError, notFound } from '../../errors.ts';
import { newId, PREFIXES } from '../../ids.ts';
import type { Actor } from '../../services.ts';
import { seconds } from '../time.ts';

/** Delivery states. An event is pending while any delivery is, delivered when all are, else failed. */
export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'cancelled';
/** An event no enabled endpoint subscribed to when it was emitted. */
export const NO_ENDPOINTS = 'no_endpoints';

let fannedOut = 0;
/** Grows whenever a transaction queued deliveries: lets a dispatcher skip wake-ups for commits that queued none. */
export const fanOutCount = () => fannedOut;

/** onEventEmitted hook: one pending delivery per enabled endpoint of the event's restaurant and mode that wants its type. */
export async function fanOut(trx: Executor, event: { id: string; type: string; livemode: boolean; restaurantId: string }): Promise<void> {
  const endpoints = await trx
    .selectFrom('webhook_endpoints')
    .select(['id', 'url', 'enabled_events'])
    .where('restaurant_id', '=', event.restaurantId)
    .where('livemode', '=', event.livemode ? 1 : 0)
    .where('status', '=', 'enabled')
    .execute();
  const targets = endpoints.filter((e) => {
    const types = JSON.parse(e.enabled_events) as string[];
    return types.includes('*') || types.includes(event.type);
  });
  if (targets.length === 0) {
    await updateRecord(trx, 'events', { id: event.id, restaurant_id: event.restaurantId }, { status: NO_ENDPOINTS });
    return;
  }
  // The event id is a ULID of the actor's clock: the delivery is stamped with the same moment.
  const ms = decodeTime(event.id.slice(event.id.indexOf('_') + 1));
  const now = Math.floor(ms / 1000);
  await trx
    .insertInto('webhook_deliveries')
    .values(
      targets.map((e) => ({
        id: newId(PREFIXES.webhookDelivery, ms),
        restaurant_id: event.restaurantId,
        event_id: event.id,
        endpoint_id: e.id,
        url: e.url,
        status: 'pending',
        attempt_count: 0,
        round_attempts: 0,
        next_attempt_at: 0,
        lease_until: null,
        lease_owner: null,
        delivered_at: null,
        created: now,
        updated: now,
      })),
    )
    .execute();
  fannedOut++;
}

/**
 * Sets the event's status from its deliveries. Touching the event row first takes its row
 * lock on PostgreSQL, so two deliveries of one event finishing at once cannot both see the
 * other still pending (SQLite runs one writer at a time anyway).
 */
export async function settleEvent(trx: Executor, restaurantId: string, eventId: string, nowSec: number): Promise<void> {
  const ev = await trx
    .updateTable('events')
    .set((eb) => ({ updated: eb.ref('updated') }))
    .where('id', '=', eventId)
    .returning(['status'])
    .executeTakeFirst();
  if (!ev) return;
  const counts = await trx
    .selectFrom('webhook_deliveries')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('event_id', '=', eventId)
    .groupBy('status')
    .execute();
  const by = new Map(counts.map((c) => [c.status, Number(c.n)]));
  const total = counts.reduce((s, c) => s + Number(c.n), 0);
  const status =
    total === 0 ? NO_ENDPOINTS : (by.get('pending') ?? 0) > 0 ? 'pending' : by.get('delivered') === total ? 'delivered' : 'failed';
  if (status !== ev.status) {
    await updateRecord(trx, 'events', { id: eventId, restaurant_id: restaurantId }, { status, updated: nowSec });
  }
}

/** Cancels what still waits for an endpoint that was disabled or removed, and settles those events. */
export async function cancelPendingForEndpoint(trx: Executor, actor: Actor, endpointId: string): Promise<number> {
  const now = seconds(actor);
  const rows = await trx
    .updateTable('webhook_deliveries')
    .set({ status: 'cancelled', next_attempt_at: null, updated: now })
    .where('restaurant_id', '=', actor.restaurantId)
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'pending')
    .returning(['event_id'])
    .execute();
  for (const eventId of new Set(rows.map((r) => r.event_id))) await settleEvent(trx, actor.restaurantId, eventId, now);
  return rows.length;
}

/**
 * Queues an event again: to one endpoint (creating its delivery if the event never went
 * there), or to every endpoint it went to that is still enabled. The attempt history stays;
 * the backoff starts over.
 */
export async function resendEvent(trx: Executor, actor: Actor, eventId: string, endpointId?: string) {
  const event = await trx
    .selectFrom('events')
    .selectAll()
    .where('restaurant_id', '=', actor.restaurantId)
    .where('livemode', '=', actor.livemode ? 1 : 0)
    .where('id', '=', eventId)
    .executeTakeFirst();
  if (!event) throw notFound('event', eventId);
  let endpoints = trx
    .selectFrom('webhook_endpoints')
    .select(['id', 'url', 'status'])
    .where('restaurant_id', '=', actor.restaurantId)
    .where('livemode', '=', event.livemode);
  if (endpointId) {
    const ep = await endpoints.where('id', '=', endpointId).executeTakeFirst();
    if (!ep) throw notFound('webhook endpoint', endpointId, 'endpoint');
    if (ep.status !== 'enabled') throw new ApiError('state_conflict', `Webhook endpoint '${endpointId}' is disabled.`, 'endpoint');
    endpoints = endpoints.where('id', '=', endpointId);
  } else {
    endpoints = endpoints
      .where('status', '=', 'enabled')
      .where('id', 'in', trx.selectFrom('webhook_deliveries').select('endpoint_id').where('event_id', '=', eventId));
  }
  const targets = await endpoints.execute();
  if (targets.length === 0) {
    throw new ApiError('state_conflict', 'This event has no delivery to an enabled endpoint to resend; name one with `endpoint`.', 'endpoint');
  }
  const now = seconds(actor);
  for (const ep of targets) {
    const requeued = await trx
      .updateTable('webhook_deliveries')
      .set({ status: 'pending', round_attempts: 0, next_attempt_at: 0, delivered_at: null, url: ep.url, updated: now })
      .where('event_id', '=', eventId)
      .where('endpoint_id', '=', ep.id)
      .executeTakeFirst();
    if (Number(requeued.numUpdatedRows) === 0) {
      await trx
        .insertInto('webhook_deliveries')
        .values({
          id: newId(PREFIXES.webhookDelivery, actor.now),
          restaurant_id: actor.restaurantId,
          event_id: eventId,
          endpoint_id: ep.id,
          url: ep.url,
          status: 'pending',
          attempt_count: 0,
          round_attempts: 0,
          next_attempt_at: 0,
          lease_until: null,
          lease_owner: null,
          delivered_at: null,
          created: now,
          updated: now,
        })
        .execute();
    }
  }
  fannedOut++;
  await settleEvent(trx, actor.restaurantId, eventId, now);
}

/** Endpoints with deliveries due now and not held by a live claim, with how many. */
export async function dueByEndpoint(db: Executor, nowMs: number) {
  const rows = await db
    .selectFrom('webhook_deliveries')
    .select(['endpoint_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', nowMs)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', nowMs)]))
    .groupBy('endpoint_id')
    .execute();
  return rows.map((r) => ({ endpointId: r.endpoint_id, due: Number(r.n) }));
}

/**
 * Claims up to `limit` due deliveries of one endpoint for `owner` until `leaseUntil`, in one
 * statement: atomic on SQLite, and SKIP LOCKED keeps concurrent PostgreSQL claimers apart.
 */
export async function claimDue(
  db: Executor,
  dialect: Dialect,
  opts: { endpointId: string; limit: number; nowMs: number; owner: string; leaseUntil: number },
) {
  const { endpointId, limit, nowMs, owner, leaseUntil } = opts;
  let pick = db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('status', '=', 'pending')
    .where('endpoint_id', '=', endpointId)
    .where('next_attempt_at', '<=', nowMs)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', nowMs)]))
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(limit);
  if (dialect === 'postgres') pick = pick.forUpdate().skipLocked();
  return db
    .updateTable('webhook_deliveries')
    .set({ lease_until: leaseUntil, lease_owner: owner })
    .where('id', 'in', pick)
    .where('status', '=', 'pending')
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', nowMs)]))
    .returningAll()
    .execute();
}

/** When the next delivery falls due (a retry, or a claim that lapses), in ms; null when nothing waits. */
export async function nextDueAt(db: Executor): Promise<number | null> {
  const r = await db
    .selectFrom('webhook_deliveries')
    .select([
      (eb) => eb.fn.min(sql<number>`case when lease_until is null then next_attempt_at end`).as('free'),
      (eb) => eb.fn.min('lease_until').as('held'),
    ])
    .where('status', '=', 'pending')
    .executeTakeFirst();
  const vals = [r?.free, r?.held].filter((v): v is number => v !== null && v !== undefined).map(Number);
  return vals.length ? Math.min(...vals) : null;
}

export interface AttemptOutcome {
  deliveryId: string;
  restaurantId: string;
  eventId: string;
  endpointId: string;
  owner: string;
  url: string;
  attemptedAtMs: number;
  responseStatus: number | null;
  durationMs: number;
  error: string | null;
  succeeded: boolean;
  /** the delivery's next state */
  status: DeliveryStatus;
  nextAttemptAt: number | null;
  /** the receiver answered 410: switch the endpoint off */
  disableEndpoint: boolean;
}

/** Stores one attempt and what follows from it, in one transaction. */
export async function recordAttempt(trx: Executor, o: AttemptOutcome): Promise<void> {
  const now = Math.floor(o.attemptedAtMs / 1000);
  // Numbering under the row lock: even a claimer whose lease lapsed cannot reuse a number.
  const d = await trx
    .updateTable('webhook_deliveries')
    .set((eb) => ({ attempt_count: eb('attempt_count', '+', 1) }))
    .where('id', '=', o.deliveryId)
    .returning(['attempt_count', 'lease_owner', 'status'])
    .executeTakeFirst();
  if (!d) return; // removed by retention meanwhile
  await trx
    .insertInto('webhook_attempts')
    .values({
      delivery_id: o.deliveryId,
      n: d.attempt_count,
      restaurant_id: o.restaurantId,
      event_id: o.eventId,
      attempted_at: now,
      response_status: o.responseStatus,
      duration_ms: Math.round(o.durationMs),
      error: o.error,
      succeeded: o.succeeded ? 1 : 0,
    })
    .execute();
  // Only the holder of the claim moves the delivery on; a cancelled delivery stays cancelled.
  if (d.lease_owner !== o.owner || d.status !== 'pending') return;
  await trx
    .updateTable('webhook_deliveries')
    .set((eb) => ({
      status: o.status,
      round_attempts: eb('round_attempts', '+', 1),
      next_attempt_at: o.nextAttemptAt,
      delivered_at: o.succeeded ? now : null,
      url: o.url,
      lease_until: null,
      lease_owner: null,
      updated: now,
    }))
    .where('id', '=', o.deliveryId)
    .execute();
  const actor: Actor = { restaurantId: o.restaurantId, livemode: true, now: o.attemptedAtMs };
  if (o.disableEndpoint) {
    await updateRecord(
      trx,
      'webhook_endpoints',
      { id: o.endpointId, restaurant_id: o.restaurantId },
      { status: 'disabled', disabled_reason: 'The receiver answered 410 Gone.', updated: now },
    );
    await cancelPendingForEndpoint(trx, actor, o.endpointId);
  }
  if (o.status !== 'pending') await settleEvent(trx, o.restaurantId, o.eventId, now);
}

/** Returns claims a stopping dispatcher holds but never sent, so they are due again at once. */
export async function releaseClaims(db: Executor, owner: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('webhook_deliveries')
    .set({ lease_until: null, lease_owner: null })
    .where('id', 'in', ids)
    .where('lease_owner', '=', owner)
    .execute();
}

/** Deliveries with their attempts for a set of events, for the events presenter. */
export async function loadDeliveries(db: Executor, restaurantId: string, eventIds: string[]) {
  if (eventIds.length === 0) return { deliveries: [], attempts: [] };
  const deliveries = await db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('restaurant_id', '=', restaurantId)
    .where('event_id', 'in', eventIds)
    .orderBy('created')
    .orderBy('id')
    .execute();
  const attempts = await db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('restaurant_id', '=', restaurantId)
    .where('event_id', 'in', eventIds)
    .orderBy('delivery_id')
    .orderBy('n')
    .execute();
  return { deliveries, attempts };
}
