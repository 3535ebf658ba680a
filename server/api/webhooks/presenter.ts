import type { Selectable } from 'kysely';
import type { WebhookEndpointsTable } from '../../db/tables/webhook-endpoints.table.ts';

/** The secret is shown only when it is made (create, roll_secret). */
export function presentEndpoint(row: Selectable<WebhookEndpointsTable>, opts: { withSecret?: boolean } = {}) {
  return {
    id: row.id,
    object: 'webhook_endpoint' as const,
    created: row.created,
    updated: row.updated,
    url: row.url,
    description: row.description,
    enabled_events: JSON.parse(row.enabled_events) as string[],
    status: row.status as 'enabled' | 'disabled',
    disabled_reason: row.disabled_reason,
    livemode: row.livemode === 1,
    ...(opts.withSecret ? { secret: row.secret } : {}),
  };
}
