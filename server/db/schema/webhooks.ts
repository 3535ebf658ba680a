import type { WebhookAttemptsTable } from '../tables/webhook-attempts.table.ts';
import type { WebhookDeliveriesTable } from '../tables/webhook-deliveries.table.ts';
import type { WebhookEndpointsTable } from '../tables/webhook-endpoints.table.ts';

/** Tables of the webhooks feature: one line per `*.table.ts`. */
export interface WebhooksTables {
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
}
