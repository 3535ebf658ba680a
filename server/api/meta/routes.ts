import { buildOpenApi } from '../../http/openapi.ts';
import { defineRoute, registry } from '../../http/route.ts';

let cached: unknown;

defineRoute({
  method: 'get',
  path: '/v1/openapi.json',
  summary: 'This API described as OpenAPI 3.1, generated from the schemas that validate requests',
  tag: 'Meta',
  auth: 'none',
  sandbox: 'keyless',
  handler: async () => (cached ??= buildOpenApi(registry)),
});

defineRoute({
  method: 'get',
  path: '/health',
  summary: 'Liveness and database check',
  tag: 'Meta',
  auth: 'none',
  sandbox: 'keyless',
  handler: async (c) => {
    await c.db.selectFrom('node_state').select('origin').executeTakeFirstOrThrow();
    return { status: 'ok', role: c.services.config.role, dialect: c.services.dialect };
  },
});
