import type { Selectable } from 'kysely';
import type { EventsTable } from '../../db/tables/events.table.ts';

/**
 * The body a receiver gets: the event as GET /v1/events/{id} shows it, minus its delivery
 * bookkeeping (`status`, `deliveries`). Of the OpenAPI document's `webhooks` entry for its type
 * (presenters/webhook-events.ts); its time is `created`, Unix seconds like every time of the
 * API (the moment of sending is the `webhook-timestamp` header). The same bytes on every retry.
 */
export function webhookBody(event: Selectable<EventsTable>): string {
  return JSON.stringify({
    id: event.id,
    object: 'event',
    type: event.type,
    created: event.created,
    livemode: event.livemode === 1,
    data: JSON.parse(event.data),
  });
}
