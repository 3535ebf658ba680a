import type { Selectable } from 'kysely';
import type { EventsTable } from '../../db/tables/events.table.ts';

/**
 * The body a receiver gets: the event as GET /v1/events/{id} shows it, minus its delivery
 * bookkeeping, plus Standard Webhooks' `timestamp`. The same bytes on every retry.
 */
export function webhookBody(event: Selectable<EventsTable>): string {
  return JSON.stringify({
    id: event.id,
    object: 'event',
    type: event.type,
    created: event.created,
    timestamp: new Date(event.created * 1000).toISOString(),
    livemode: event.livemode === 1,
    data: JSON.parse(event.data),
  });
}
