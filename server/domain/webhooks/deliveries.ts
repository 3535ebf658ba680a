import { sql, type Insertable } from 'kysely';
import { decodeTime } from 'ulid';
import type { Dialect } from '../../db/database.ts';
import type { WebhookAttemptsTable } from '../../db/tables/webhook-attempts.table.ts';
import { updateRecord, type Executor } from '../../db/records.ts';
import { ApiError, notFound } from '../../errors.ts';
import { newId, PREFIXES } from '../../ids.ts';
import type { Actor } from '../../services.ts';
import { seconds } from '../time.ts';
import type { EventPlan } from '../events/emit.ts';
import { perDatabase } from '../../db/versioned-cache.ts';
import { versionsOf } from '../../db/versions.ts';
import { sendingSide } from './hand-off.ts';
import { eventMatches } from '../../model/events.ts';

/** Delivery states. An event is pending while any delivery is, delivered when all are, else failed. */
export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'cancelled';
/** An event no enabled endpoint subscribed to when it was emitted. */
export const NO_ENDPOINTS = 'no_endpoints';

let fannedOut = 0;
/** Grows whenever a transaction queued deliveries: lets a dispatcher skip wake-ups for commits that queued none. */
export const fanOutCount = () => fannedOut;

/** onEventEmitted hook: one pending delivery per enabled endpoint of the event's restaurant and mode that wants its type. */
/** A delivery row waiting for its first attempt, stamped with the moment `ms`. */
function pendingDelivery(restaurantId: string, eventId: string, endpoint: { id: string; url: string }, ms: number) {
  const now = Math.floor(ms / 1000);
  return {
    id: newId(PREFIXES.webhookDelivery, ms),
    restaurant_id: restaurantId,
    event_id: eventId,
    endpoint_id: endpoint.id,
    url: endpoint.url,
    status: 'pending',
    attempt_count: 0,
    round_attempts: 0,
    next_attempt_at: 0,
    lease_until: null,
    lease_owner: null,
    delivered_at: null,
    created: now,
    updated: now,
  } as const;
}

type Endpoint = { id: string; url: string; types: string[]; sentBy: string };
const endpointCaches = perDatabase<Endpoint[]>(256);

/** A restaurant's enabled endpoints of one mode, read again only when an endpoint changed. */
function enabledEndpoints(trx: Executor, restaurantId: string, livemode: boolean): Promise<Endpoint[]> {
  return endpointCaches(versionsOf(trx)).through(
    trx,
    restaurantId,
    `${restaurantId}|${livemode}`,
    async () =>
      (
        await trx
          .selectFrom('webhook_endpoints')
          .select(['id', 'url', 'enabled_events', 'sent_by'])
          .where('restaurant_id', '=', restaurantId)
          .where('livemode', '=', livemode ? 1 : 0)
          .where('status', '=', 'enabled')
          .execute()
      ).map((e) => ({ id: e.id, url: e.url, types: JSON.parse(e.enabled_events) as string[], sentBy: e.sent_by })),
    ['webhook_endpoints'],
  );
}

/**
 * Each event goes to each endpoint once, from the side that sends that endpoint (`sendingSide`).
 * A linked hub fans out to its `hub` endpoints, both its own events and those it pulls from the
 * cloud; the cloud to its `cloud` endpoints, both its own events and those a hub pushes. What
 * only the other side sends stays `pending` here: that side settles the event's status.
 */
export async function fanOut(
  trx: Executor,
  event: { id: string; type: string; livemode: boolean; restaurantId: string },
  /** the side applying another's change says which it is (a hub applying the cloud's change is linked) */
  as?: 'hub' | 'cloud',
): Promise<EventPlan> {
  let side = as ?? sendingSide(trx, event.restaurantId);
  const endpoints = await enabledEndpoints(trx, event.restaurantId, event.livemode);
  const wanted = endpoints.filter((e) => eventMatches(e.types, event.type));
  // a restaurant with no hub on this cloud: its `hub` endpoints have no one else to send them
  if (side === 'cloud' && wanted.some((e) => e.sentBy === 'hub') && !(await hasLinkedHub(trx, event.restaurantId))) side = 'all';
  const targets = side === 'all' ? wanted : wanted.filter((e) => e.sentBy === side);
  if (targets.length === 0) {
    // a linked hub leaves the rest to the cloud (which settles the event, no_endpoints
    // included); the cloud leaves an event only `hub` endpoints want to the hub
    if (side === 'hub' || (side === 'cloud' && wanted.length > 0)) return { status: 'pending' };
    return { status: NO_ENDPOINTS };
  }
  return {
    async write() {
      // The event id is a ULID of the actor's clock: the delivery is stamped with the same moment.
      const ms = decodeTime(event.id.slice(event.id.indexOf('_') + 1));
      await trx
        .insertInto('webhook_deliveries')
        .values(targets.map((e) => pendingDelivery(event.restaurantId, event.id, e, ms)))
        .execute();
      fannedOut++;
    },
  };
}

const hasLinkedHub = async (trx: Executor, restaurantId: string) =>
  !!(await trx.selectFrom('sync_hubs').select('id').where('restaurant_id', '=', restaurantId).where('revoked_at', 'is', null).executeTakeFirst());

/**
 * Sets each event's status from its deliveries. Touching the event rows first takes their
 * row locks on PostgreSQL, so two deliveries of one event finishing at once in different
 * transactions cannot both see the other still pending (SQLite runs one writer at a time).
 */
export async function settleEvents(trx: Executor, events: Map<string, { restaurantId: string; now: number }>): Promise<void> {
  const all = [...events.keys()];
  for (let i = 0; i < all.length; i += 200) {
    const ids = all.slice(i, i + 200);
    const current = await trx
      .updateTable('events')
      .set((eb) => ({ updated: eb.ref('updated') }))
      .where('id', 'in', ids)
      .returning(['id', 'status'])
      .execute();
    const counts = await trx
      .selectFrom('webhook_deliveries')
      .select(['event_id', 'status', (eb) => eb.fn.countAll<number>().as('n')])
      .where('event_id', 'in', ids)
      .groupBy(['event_id', 'status'])
      .execute();
    const by = new Map<string, Map<string, number>>();
    for (const c of counts) {
      const m = by.get(c.event_id) ?? new Map<string, number>();
      m.set(c.status, Number(c.n));
      by.set(c.event_id, m);
    }
    for (const ev of current) {
      const m = by.get(ev.id) ?? new Map<string, number>();
      const total = [...m.values()].reduce((a, b) => a + b, 0);
      const status =
        total === 0 ? NO_ENDPOINTS : (m.get('pending') ?? 0) > 0 ? 'pending' : m.get('delivered') === total ? 'delivered' : 'failed';
      if (status === ev.status) continue;
      const { restaurantId, now } = events.get(ev.id)!;
      await updateRecord(trx, 'events', { id: ev.id, restaurant_id: restaurantId }, { status, updated: now });
    }
  }
}

export async function settleEvent(trx: Executor, restaurantId: string, eventId: string, nowSec: number): Promise<void> {
  await settleEvents(trx, new Map([[eventId, { restaurantId, now: nowSec }]]));
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
 * the backoff starts over. A claim on the delivery is dropped: an attempt still in flight
 * then no longer holds it, so its answer goes into the history only and the delivery is
 * sent again (see recordAttempts).
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
      .set({
        status: 'pending',
        round_attempts: 0,
        next_attempt_at: 0,
        lease_until: null,
        lease_owner: null,
        delivered_at: null,
        url: ep.url,
        updated: now,
      })
      .where('event_id', '=', eventId)
      .where('endpoint_id', '=', ep.id)
      .executeTakeFirst();
    if (Number(requeued.numUpdatedRows) === 0) {
      await trx
        .insertInto('webhook_deliveries')
        .values(pendingDelivery(actor.restaurantId, eventId, ep, actor.now))
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
 * `exclude`: deliveries the claimer is still sending, never claimed again by it meanwhile.
 */
export async function claimDue(
  db: Executor,
  dialect: Dialect,
  opts: { endpointId: string; limit: number; nowMs: number; owner: string; leaseUntil: number; exclude?: readonly string[] },
) {
  const { endpointId, limit, nowMs, owner, leaseUntil, exclude = [] } = opts;
  let pick = db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('status', '=', 'pending')
    .where('endpoint_id', '=', endpointId)
    .where('next_attempt_at', '<=', nowMs)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', nowMs)]));
  if (exclude.length) pick = pick.where('id', 'not in', exclude);
  pick = pick
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(limit);
  if (dialect === 'postgres') pick = pick.forUpdate().skipLocked();
  return db
    .updateTable('webhook_deliveries')
    .set({ lease_until: leaseUntil, lease_owner: owner })
    // PostgreSQL may run an `IN (…)` subquery again for every row it scans, and with SKIP
    // LOCKED each run picks other rows: one claim took the whole queue. `= any(array(…))`
    // is computed once, so a claim takes at most `limit`.
    .where(dialect === 'postgres' ? sql<boolean>`id = any(array(${pick}))` : sql<boolean>`id in (${pick})`)
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

/**
 * Stores attempts and what follows from them, in the caller's transaction (the dispatcher
 * batches the attempts that finished together). Successes, the common case, move on in one
 * statement per batch; events whose deliveries all ended are settled once each.
 */
export async function recordAttempts(trx: Executor, outcomes: AttemptOutcome[]): Promise<void> {
  const settle = new Map<string, { restaurantId: string; now: number }>();
  const attempts: Insertable<WebhookAttemptsTable>[] = [];
  const attemptOf = (o: AttemptOutcome, n: number) =>
    attempts.push({
      delivery_id: o.deliveryId,
      n,
      restaurant_id: o.restaurantId,
      event_id: o.eventId,
      attempted_at: Math.floor(o.attemptedAtMs / 1000),
      response_status: o.responseStatus,
      duration_ms: Math.round(o.durationMs),
      error: o.error,
      succeeded: o.succeeded ? 1 : 0,
    });
  const rest: AttemptOutcome[] = [];
  const gone = new Map<string, AttemptOutcome>();

  // Successes by (second, owner, url): only the holder of the claim moves a delivery on (a
  // cancelled one stays cancelled); the same statement numbers the attempt under the row lock.
  const groups = new Map<string, AttemptOutcome[]>();
  for (const o of outcomes) {
    if (!o.succeeded) {
      rest.push(o);
      continue;
    }
    const key = `${Math.floor(o.attemptedAtMs / 1000)}|${o.owner}|${o.url}`;
    groups.set(key, [...(groups.get(key) ?? []), o]);
  }
  for (const group of groups.values()) {
    const { owner, url } = group[0];
    const now = Math.floor(group[0].attemptedAtMs / 1000);
    const moved = await trx
      .updateTable('webhook_deliveries')
      .set((eb) => ({
        attempt_count: eb('attempt_count', '+', 1),
        round_attempts: eb('round_attempts', '+', 1),
        status: 'delivered',
        next_attempt_at: null,
        delivered_at: now,
        url,
        lease_until: null,
        lease_owner: null,
        updated: now,
      }))
      .where('id', 'in', group.map((o) => o.deliveryId))
      .where('lease_owner', '=', owner)
      // cancelled while this send was in flight: the answer still counts
      .where('status', 'in', ['pending', 'cancelled'])
      .returning(['id', 'attempt_count'])
      .execute();
    const n = new Map(moved.map((m) => [m.id, m.attempt_count]));
    for (const o of group) {
      const num = n.get(o.deliveryId);
      if (num === undefined) rest.push(o);
      else {
        attemptOf(o, num);
        settle.set(o.eventId, { restaurantId: o.restaurantId, now });
      }
    }
  }

  for (const o of rest) {
    const now = Math.floor(o.attemptedAtMs / 1000);
    const moved = o.succeeded
      ? undefined // a success that did not move above lost its claim
      : await trx
          .updateTable('webhook_deliveries')
          .set((eb) => ({
            attempt_count: eb('attempt_count', '+', 1),
            round_attempts: eb('round_attempts', '+', 1),
            // a delivery cancelled while this send was in flight ends failed, never retried
            status: sql<string>`case when status = 'cancelled' then 'failed' else cast(${o.status} as text) end`,
            next_attempt_at: sql<number | null>`case when status = 'cancelled' then null else cast(${o.nextAttemptAt} as bigint) end`,
            delivered_at: null,
            url: o.url,
            lease_until: null,
            lease_owner: null,
            updated: now,
          }))
          .where('id', '=', o.deliveryId)
          .where('lease_owner', '=', o.owner)
          .where('status', 'in', ['pending', 'cancelled'])
          .returning(['attempt_count', 'status'])
          .executeTakeFirst();
    let n = moved?.attempt_count;
    if (n === undefined) {
      // The claim lapsed (another process may be sending it now), the delivery was
      // cancelled, or a resend requeued it while this attempt was in flight (it stays due
      // now, a new round): the attempt goes into the history only.
      const d = await trx
        .updateTable('webhook_deliveries')
        .set((eb) => ({ attempt_count: eb('attempt_count', '+', 1) }))
        .where('id', '=', o.deliveryId)
        .returning(['attempt_count'])
        .executeTakeFirst();
      if (!d) continue; // removed by retention meanwhile
      n = d.attempt_count;
    }
    attemptOf(o, n);
    if (!moved) continue;
    if (o.disableEndpoint) gone.set(o.endpointId, o);
    if (moved.status !== 'pending') settle.set(o.eventId, { restaurantId: o.restaurantId, now });
  }

  // After every outcome of the batch has moved its own delivery on: what still waits for a
  // receiver that answered 410 is cancelled, not what it answered itself.
  for (const o of gone.values()) {
    await updateRecord(
      trx,
      'webhook_endpoints',
      { id: o.endpointId, restaurant_id: o.restaurantId },
      { status: 'disabled', disabled_reason: 'The receiver answered 410 Gone.', updated: Math.floor(o.attemptedAtMs / 1000) },
    );
    await cancelPendingForEndpoint(trx, { restaurantId: o.restaurantId, livemode: true, now: o.attemptedAtMs }, o.endpointId);
  }

  for (let i = 0; i < attempts.length; i += 100) {
    await trx.insertInto('webhook_attempts').values(attempts.slice(i, i + 100)).execute();
  }
  if (settle.size) await settleEvents(trx, settle);
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
