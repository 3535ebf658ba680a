import { z } from 'zod';
import type { RouteSpec } from './route.ts';

const toJson = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, any>;

const ERROR = {
  description: 'Error',
  content: {
    'application/json': {
      schema: {
        type: 'object',
        properties: {
          error: {
            type: 'object',
            properties: {
              type: { type: 'string' },
              code: { type: 'string' },
              message: { type: 'string' },
              param: { type: ['string', 'null'] },
            },
            required: ['type', 'code', 'message', 'param'],
          },
        },
      },
    },
  },
};

/** The OpenAPI document, built from the very route specs and zod schemas that serve requests. */
export function buildOpenApi(routes: RouteSpec[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const path = r.path.replace(/:(\w+)/g, '{$1}');
    const parameters: unknown[] = [];
    if (r.params) {
      const props = toJson(r.params).properties ?? {};
      for (const [name, schema] of Object.entries(props)) parameters.push({ name, in: 'path', required: true, schema });
    }
    if (r.query) {
      const js = toJson(r.query);
      const required = new Set<string>(js.required ?? []);
      for (const [name, schema] of Object.entries(js.properties ?? {})) {
        parameters.push({ name, in: 'query', required: required.has(name), schema });
      }
    }
    if (r.expand) {
      parameters.push({ name: 'expand[]', in: 'query', required: false, schema: { type: 'array', items: { type: 'string' } } });
    }
    if (r.idempotent) parameters.push({ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: 255 } });
    const op: Record<string, unknown> = {
      summary: r.summary,
      tags: [r.tag],
      operationId: `${r.method}_${r.path.replace(/[/:{}]+/g, '_').replace(/^_|_$/g, '')}`,
      parameters,
      responses: { [String(r.status ?? 200)]: { description: 'Success' }, default: ERROR },
      ...(r.auth !== 'none' && { security: [{ [r.auth === 'widget' ? 'widgetKey' : 'secretKey']: r.scope ? [r.scope] : [] }] }),
      ...(r.scope && { 'x-scope': r.scope }),
      // what a sandbox key may do here (README, "Sandbox keys")
      ...(r.auth !== 'none' && { 'x-sandbox': r.sandbox }),
    };
    // an empty body is read as {} (http/route.ts): the body is required when {} is not enough
    if (r.body) op.requestBody = { required: !r.body.safeParse({}).success, content: { 'application/json': { schema: toJson(r.body) } } };
    (paths[path] ??= {})[r.method] = op;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'comanda restaurant operations API', version: 'v1' },
    paths,
    components: {
      securitySchemes: {
        secretKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'sk_live_… or sk_test_…' },
        widgetKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'wk_… for /public/orders' },
      },
    },
  };
}
