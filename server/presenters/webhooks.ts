import type { Selectable } from 'kysely';
import { z } from 'zod';
import type { WebhookEndpointsTable } from '../db/tables/webhook-endpoints.table.ts';
import { deletedOf, named, unix } from '../model/schemas.ts';

export const WebhookEndpointSchema = named(
  'WebhookEndpoint',
  z.object({
    id: z.string(),
    object: z.literal('webhook_endpoint'),
    created: unix(),
    updated: unix(),
    url: z.string(),
    description: z.string().nullable(),
    enabled_events: z.array(z.string()),
    status: z.enum(['enabled', 'disabled']),
    disabled_reason: z.string().nullable(),
    livemode: z.boolean(),
    sent_by: z
      .enum(['cloud', 'hub'])
      .describe('which side of a restaurant linked to a cloud sends its events: the cloud, or the hub on the venue’s network (online or not)'),
    secret: z.string().optional().describe('only in the answers of create and roll_secret'),
  }),
);
export type WebhookEndpoint = z.output<typeof WebhookEndpointSchema>;
export const DeletedWebhookEndpointSchema = named('DeletedWebhookEndpoint', deletedOf('webhook_endpoint'));

/** The secret is shown only when it is made (create, roll_secret). */
export function presentEndpoint(row: Selectable<WebhookEndpointsTable>, opts: { withSecret?: boolean } = {}): WebhookEndpoint {
  return {
    id: row.id,
    object: 'webhook_endpoint',
    created: row.created,
    updated: row.updated,
    url: row.url,
    description: row.description,
    enabled_events: JSON.parse(row.enabled_events) as string[],
    status: row.status as 'enabled' | 'disabled',
    disabled_reason: row.disabled_reason,
    livemode: row.livemode === 1,
    sent_by: row.sent_by === 'hub' ? 'hub' : 'cloud',
    ...(opts.withSecret ? { secret: row.secret } : {}),
  };
}
