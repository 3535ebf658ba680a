import type { Selectable } from 'kysely';
import type { EventsTable } from '../db/tables/events.table.ts';
import type { WebhookAttemptsTable } from '../db/tables/webhook-attempts.table.ts';
import type { WebhookDeliveriesTable } from '../db/tables/webhook-deliveries.table.ts';
import { z } from 'zod';
import { named, unix } from '../model/schemas.ts';
import { EVENT_TYPES, type EventType } from '../model/events.ts';

export const WebhookAttemptSchema = named(
  'WebhookAttempt',
  z.object({
    attempted_at: unix(),
    response_status: z.number().int().nullable(),
    duration_ms: z.number().int(),
    error: z.string().nullable(),
    succeeded: z.boolean(),
  }),
);

export const WebhookDeliverySchema = named(
  'WebhookDelivery',
  z.object({
    endpoint: z.string(),
    url: z.string(),
    status: z.enum(['pending', 'delivered', 'failed', 'cancelled']),
    delivered_at: unix().nullable(),
    next_retry_at: unix().nullable(),
    attempts: z.array(WebhookAttemptSchema),
  }),
);

export const EventSchema = named(
  'Event',
  z.object({
    id: z.string(),
    object: z.literal('event'),
    created: unix(),
    type: z.enum(EVENT_TYPES),
    livemode: z.boolean(),
    status: z.enum(['pending', 'delivered', 'failed', 'no_endpoints']),
    data: z.record(z.string(), z.unknown()),
    deliveries: z.array(WebhookDeliverySchema),
  }),
);
export type Event = z.output<typeof EventSchema>;

export function presentAttempt(a: Selectable<WebhookAttemptsTable>): z.output<typeof WebhookAttemptSchema> {
  return {
    attempted_at: a.attempted_at,
    response_status: a.response_status,
    duration_ms: a.duration_ms,
    error: a.error,
    succeeded: a.succeeded === 1,
  };
}

export function presentDelivery(d: Selectable<WebhookDeliveriesTable>, attempts: Selectable<WebhookAttemptsTable>[]): z.output<typeof WebhookDeliverySchema> {
  return {
    endpoint: d.endpoint_id,
    url: d.url,
    status: d.status as z.output<typeof WebhookDeliverySchema>['status'],
    delivered_at: d.delivered_at,
    // Only a retry is announced: the first attempt of a fresh or resent delivery is immediate.
    next_retry_at: d.status === 'pending' && d.round_attempts > 0 && d.next_attempt_at !== null ? Math.ceil(d.next_attempt_at / 1000) : null,
    attempts: attempts.map(presentAttempt),
  };
}

export type PresentedDelivery = ReturnType<typeof presentDelivery>;

export function presentEvent(row: Selectable<EventsTable>, deliveries: PresentedDelivery[] = []): Event {
  return {
    id: row.id,
    object: 'event',
    created: row.created,
    type: row.type as EventType,
    livemode: row.livemode === 1,
    status: row.status as Event['status'],
    data: JSON.parse(row.data) as Record<string, unknown>,
    deliveries,
  };
}

/** Groups loaded deliveries and attempts per event. */
export function deliveriesByEvent(loaded: {
  deliveries: Selectable<WebhookDeliveriesTable>[];
  attempts: Selectable<WebhookAttemptsTable>[];
}): Map<string, PresentedDelivery[]> {
  const attemptsOf = new Map<string, Selectable<WebhookAttemptsTable>[]>();
  for (const a of loaded.attempts) {
    const list = attemptsOf.get(a.delivery_id);
    if (list) list.push(a);
    else attemptsOf.set(a.delivery_id, [a]);
  }
  const out = new Map<string, PresentedDelivery[]>();
  for (const d of loaded.deliveries) {
    const p = presentDelivery(d, attemptsOf.get(d.id) ?? []);
    const list = out.get(d.event_id);
    if (list) list.push(p);
    else out.set(d.event_id, [p]);
  }
  return out;
}
