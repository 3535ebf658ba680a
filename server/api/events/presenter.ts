import type { Selectable } from 'kysely';
import type { EventsTable } from '../../db/tables/events.table.ts';

export function presentEvent(row: Selectable<EventsTable>, deliveries: unknown[] = []) {
  return {
    id: row.id,
    object: 'event' as const,
    created: row.created,
    type: row.type,
    livemode: row.livemode === 1,
    status: row.status,
    data: JSON.parse(row.data) as Record<string, unknown>,
    deliveries,
  };
}
