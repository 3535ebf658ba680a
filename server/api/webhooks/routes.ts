import { createEndpoint, deleteEndpoint, findEndpoint, rollSecret, updateEndpoint } from '../../domain/webhooks/endpoints.ts';
import { webhooksConfig } from '../../domain/webhooks/config.ts';
import { checkEndpointUrl, policyFor } from '../../domain/webhooks/url-policy.ts';
import { mustExist, notFound } from '../../errors.ts';
import { mapPage, NEWEST_FIRST, paginate } from '../../http/pagination.ts';
import { defineRoute, idParam, type RouteSpec } from '../../http/route.ts';
import { DeletedWebhookEndpointSchema, presentEndpoint, WebhookEndpointSchema } from '../../presenters/webhooks.ts';
import { CreateEndpoint, ListEndpoints, RollSecret, UpdateEndpoint } from './schema.ts';
import { listOf } from '../../model/schemas.ts';

const tag = 'Webhook endpoints';

export const routes: RouteSpec[] = [
  defineRoute({
    method: 'get',
    path: '/v1/webhook_endpoints',
    response: listOf(WebhookEndpointSchema),
    summary: "List the webhook endpoints of the key's mode (live or sandbox), newest first",
    tag,
    auth: 'secret',
    sandbox: 'own_mode',
    scope: 'webhooks:read',
    query: ListEndpoints,
    handler: async (c) => {
      const actor = c.actor();
      const qb = c.db
        .selectFrom('webhook_endpoints')
        .selectAll()
        .where('restaurant_id', '=', actor.restaurantId)
        .where('livemode', '=', actor.livemode ? 1 : 0);
      const page = await paginate(qb, { ...c.query, keys: NEWEST_FIRST('webhook_endpoints'), url: '/v1/webhook_endpoints' });
      return mapPage(page, (rows) => rows.map((r) => presentEndpoint(r)));
    },
  }),

  defineRoute({
    method: 'post',
    path: '/v1/webhook_endpoints',
    errors: ['url_not_allowed'],
    response: WebhookEndpointSchema,
    summary: 'Create a webhook endpoint; its signing secret (whsec_…) is in this answer only',
    tag,
    auth: 'secret',
    sandbox: 'own_mode',
    scope: 'webhooks:write',
    body: CreateEndpoint,
    idempotent: true,
    status: 201,
    handler: async (c) => {
      const url = await checkEndpointUrl(c.body.url, policyFor(webhooksConfig(c.services.config), c.body.sent_by), c.actor().livemode);
      const row = await createEndpoint(c.db, c.actor(), { ...c.body, url });
      return presentEndpoint(row, { withSecret: true });
    },
  }),

  defineRoute({
    method: 'get',
    path: '/v1/webhook_endpoints/:id',
    response: WebhookEndpointSchema,
    summary: 'Retrieve a webhook endpoint (without its secret)',
    tag,
    auth: 'secret',
    sandbox: 'own_mode',
    scope: 'webhooks:read',
    params: idParam('we_ id'),
    handler: async (c) => {
      const row = mustExist(await findEndpoint(c.db, c.actor(), c.params.id), 'webhook endpoint', c.params.id);
      return presentEndpoint(row);
    },
  }),

  defineRoute({
    method: 'patch',
    path: '/v1/webhook_endpoints/:id',
    errors: ['url_not_allowed'],
    response: WebhookEndpointSchema,
    summary: 'Update a webhook endpoint; disabling it cancels what still waits for it',
    tag,
    auth: 'secret',
    sandbox: 'own_mode',
    scope: 'webhooks:write',
    params: idParam('we_ id'),
    body: UpdateEndpoint,
    handler: async (c) => {
      const patch = { ...c.body };
      if (patch.url !== undefined || patch.sent_by !== undefined) {
        const current = await findEndpoint(c.db, c.actor(), c.params.id);
        if (!current) throw notFound('webhook endpoint', c.params.id);
        // moved to the cloud, its URL must be one the cloud may reach
        const url = await checkEndpointUrl(patch.url ?? current.url, policyFor(webhooksConfig(c.services.config), patch.sent_by ?? current.sent_by), c.actor().livemode);
        if (patch.url !== undefined) patch.url = url;
      }
      const row = await c.services.tx.run((trx) => updateEndpoint(trx, c.actor(), c.params.id, patch));
      return presentEndpoint(row);
    },
  }),

  defineRoute({
    method: 'delete',
    path: '/v1/webhook_endpoints/:id',
    response: DeletedWebhookEndpointSchema,
    summary: 'Delete a webhook endpoint; its delivery history stays on the events',
    tag,
    auth: 'secret',
    sandbox: 'own_mode',
    scope: 'webhooks:write',
    params: idParam('we_ id'),
    handler: async (c) => {
      const row = await c.services.tx.run((trx) => deleteEndpoint(trx, c.actor(), c.params.id));
      return { id: row.id, object: 'webhook_endpoint' as const, deleted: true as const };
    },
  }),

  defineRoute({
    method: 'post',
    path: '/v1/webhook_endpoints/:id/roll_secret',
    response: WebhookEndpointSchema,
    summary: 'Issue a new signing secret (shown once); expires_in keeps the old one signing for that many seconds',
    tag,
    auth: 'secret',
    sandbox: 'own_mode',
    scope: 'webhooks:write',
    params: idParam('we_ id'),
    body: RollSecret,
    // A retried roll with the same Idempotency-Key makes no third secret; its replay carries no
    // secret (stored answers never keep one: http/idempotency.ts), so a lost answer means rolling again.
    idempotent: true,
    handler: async (c) => {
      const row = await rollSecret(c.db, c.actor(), c.params.id, c.body.expires_in ?? 0);
      return presentEndpoint(row, { withSecret: true });
    },
  }),
];
