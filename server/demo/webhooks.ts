import { createEndpoint } from '../domain/webhooks/endpoints.ts';
import type { DemoStep } from './step.ts';

/**
 * Demo data of the webhooks feature: one endpoint, disabled, so the owner sees the shape and
 * its secret without the hub posting to a receiver that does not exist. Enable it with a real
 * URL (PATCH /v1/webhook_endpoints/{id}).
 */
export const webhooksDemo: DemoStep = async (tx, actor, _opts, result) => {
  const ep = await tx.run((trx) =>
    createEndpoint(trx, actor, {
      url: 'http://127.0.0.1:9999/webhooks',
      enabled_events: ['order.created', 'order.completed', 'order.cancelled', 'reservation.cancelled'],
      description: 'Example endpoint: point it at your receiver, then enable it',
      status: 'disabled',
    }),
  );
  result.webhook_endpoint = { id: ep.id, url: ep.url, status: ep.status, secret: ep.secret };
};
