import type { z } from 'zod';
import { EVENT_TYPES, type EventType } from '../model/events.ts';
import { WEBHOOK_PAYLOADS } from '../presenters/webhook-events.ts';

/**
 * The OpenAPI 3.1 `webhooks` of the document: one entry per event type, the body a receiver
 * gets (domain/webhooks/payload.ts) and the Standard Webhooks headers that sign it.
 */

/** `order.created` → `OrderCreatedEvent`: the component of that type's delivery body. */
export const webhookComponentId = (type: EventType) =>
  `${type
    .split(/[._]/)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('')}Event`;

export function webhookComponents(): Map<string, z.ZodType> {
  return new Map(EVENT_TYPES.map((t) => [webhookComponentId(t), WEBHOOK_PAYLOADS.get(t)!]));
}

const HEADERS = [
  { name: 'webhook-id', description: 'the event id: the same on every retry, de-duplicate on it', schema: { type: 'string' } },
  { name: 'webhook-timestamp', description: 'Unix seconds, the moment of sending', schema: { type: 'string', pattern: '^\\d+$' } },
  {
    name: 'webhook-signature',
    description: '`v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}`, keyed with the base64-decoded secret; space-separated during a secret roll',
    schema: { type: 'string' },
  },
].map((h) => ({ ...h, in: 'header', required: true }));

export function webhooksSection() {
  return Object.fromEntries(
    EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          summary: `${type} delivery`,
          description: `Posted to every enabled endpoint whose \`enabled_events\` name \`${type}\`, \`${type.slice(0, type.indexOf('.'))}.*\` or \`*\`.`,
          operationId: `webhook_${type.replace(/[^A-Za-z0-9]+/g, '_')}`,
          tags: ['Webhooks'],
          security: [],
          parameters: HEADERS,
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${webhookComponentId(type)}` } } } },
          responses: {
            '200': { description: 'Any 2xx acknowledges the delivery' },
            '410': { description: 'Gone: disables the endpoint; nothing more is sent to it' },
            default: { description: 'Anything else, or no answer in 15 s, is a failed attempt, retried on a schedule' },
          },
        },
      },
    ]),
  );
}
