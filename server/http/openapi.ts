import { z } from 'zod';
import { errorComponent, errorResponses } from './openapi-errors.ts';
import { idempotencyOf, type RouteSpec } from './route.ts';
import { namedSchemas } from '../model/schemas.ts';
import { queryJsonSchemas } from './query.ts';
import { webhookComponents, webhooksSection } from './openapi-webhooks.ts';
import { addExamples } from './openapi-examples.ts';

/**
 * A request schema as JSON Schema, seen from the client's side (`io: 'input'`). A pipe into an
 * enum (`z.string().pipe(z.enum(…))`, kept for its error message) shows the enum: the input side
 * alone would say "any string".
 */
const toJson = (schema: z.ZodType) =>
  z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      const typed = queryJsonSchemas.get(zodSchema as unknown as z.ZodType);
      if (typed) {
        for (const k of Object.keys(jsonSchema)) delete (jsonSchema as Record<string, unknown>)[k];
        Object.assign(jsonSchema, typed);
        return;
      }
      const def = (zodSchema as any)._zod?.def;
      const out = def?.type === 'pipe' ? def.out?._zod?.def : undefined;
      if (out?.type === 'enum') jsonSchema.enum = Object.values(out.entries);
    },
  }) as Record<string, any>;

const COMPONENT = '#/components/schemas/';

/** `get_v1_orders_id`: the method and the path, in the characters every generator takes. */
export const operationId = (r: Pick<RouteSpec, 'method' | 'path'>) => `${r.method}_${r.path.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, '')}`;

/** A JSON Schema of the document without the keywords only a standalone schema carries. */
function bare(schema: Record<string, unknown>) {
  const { $schema: _s, $id: _i, ...rest } = schema;
  return rest;
}

/**
 * The response schemas, converted together so that every presenter's schema is one component
 * and the routes refer to it: a route's own shape (a list of them, a report) is inlined.
 */
function responseSchemas(routes: readonly RouteSpec[]) {
  const registry = z.registry<{ id: string }>();
  // the webhook payloads are components too, referring to the same resources
  const named = new Map([...namedSchemas, ...webhookComponents()]);
  for (const [id, schema] of named) registry.add(schema, { id });
  const idOf = new Map<z.ZodType, string>([...named].map(([id, s]) => [s, id]));
  const routeIds = new Map<RouteSpec, string>();
  for (const r of routes) {
    if (!r.response) continue;
    let id = idOf.get(r.response);
    if (!id) {
      id = `${operationId(r)}_response`;
      idOf.set(r.response, id);
      registry.add(r.response, { id });
    }
    routeIds.set(r, id);
  }
  const { schemas } = z.toJSONSchema(registry, { uri: (id) => COMPONENT + id, io: 'output', unrepresentable: 'any' }) as {
    schemas: Record<string, Record<string, unknown>>;
  };
  const components: Record<string, unknown> = {};
  for (const id of named.keys()) components[id] = bare(schemas[id]);
  const byRoute = new Map<RouteSpec, unknown>();
  for (const [r, id] of routeIds) byRoute.set(r, named.has(id) ? { $ref: COMPONENT + id } : bare(schemas[id]));
  return { components, byRoute };
}

/** The OpenAPI document, built from the very route specs and zod schemas that serve requests and shape answers. */
export function buildOpenApi(routes: readonly RouteSpec[]) {
  const { components, byRoute } = responseSchemas(routes);
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
    if (idempotencyOf(r)) parameters.push(IDEMPOTENCY_KEY);
    const status = String(r.status ?? 200);
    const schema = byRoute.get(r);
    const success = r.responseType
      ? { description: 'Success', content: { [r.responseType]: { schema: { type: 'string' } } } }
      : { description: 'Success', ...(schema ? { content: { 'application/json': { schema } } } : {}) };
    const op: Record<string, unknown> = {
      summary: r.summary,
      tags: [r.tag],
      operationId: operationId(r),
      parameters,
      responses: { [status]: success, ...errorResponses(r) },
      // a keyless route says so (`[]`): "no key" is not "key forgotten" to a generator
      security: r.auth === 'none' ? [] : [{ [r.auth === 'widget' ? 'widgetKey' : 'secretKey']: r.scope ? [r.scope] : [] }, { bearerKey: r.scope ? [r.scope] : [] }],
      ...(r.scope && { 'x-scope': r.scope }),
      // what a sandbox key may do here (docs/integrators/api.md, "Sandbox keys")
      ...(r.auth !== 'none' && { 'x-sandbox': r.sandbox }),
      // served only by a server of this role (the cloud's side of sync)
      ...(r.role && { 'x-role': r.role }),
    };
    // an empty body is read as {} (http/route.ts): the body is required when {} is not enough
    if (r.body) op.requestBody = { required: !r.body.safeParse({}).success, content: { 'application/json': { schema: toJson(r.body) } } };
    (paths[path] ??= {})[r.method] = op;
  }
  const doc = tidy({
    openapi: '3.1.0',
    info: {
      title: 'comanda restaurant operations API',
      version: 'v1',
      description: 'The API of a comanda hub (and of its cloud). Every error is one body (`Error`) whose `code` fixes the status; every answer carries a `Request-Id` header.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-comanda' },
    },
    // the hub is reached at whatever address the venue gives it: the document's own origin
    servers: [{ url: '/', description: 'the hub or cloud serving this document' }],
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    paths,
    webhooks: webhooksSection(),
    components: {
      schemas: { Error: errorComponent(), ...components },
      securitySchemes: {
        secretKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'sk_live_… or sk_test_…' },
        widgetKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'wk_… for /public/orders' },
        bearerKey: { type: 'http', scheme: 'bearer', description: 'the same key as `Authorization: Bearer sk_…` (or `wk_…`)' },
      },
    },
  });
  addExamples(doc);
  return doc;
}

const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: 'The same key and body within 24 h replay the first answer (Idempotent-Replayed: true); another body with it is 422.',
  schema: { type: 'string', maxLength: 255 },
};

/** Schema constructs generators and linters trip on, said plainly: a one-choice `oneOf`/`anyOf` is its choice. */
function tidy<T>(doc: T): T {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (!v || typeof v !== 'object') return v;
    let o = Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)])) as Record<string, unknown>;
    for (const key of ['oneOf', 'anyOf'] as const) {
      const list = o[key];
      if (Array.isArray(list) && list.length === 1 && typeof list[0] === 'object') {
        const { [key]: _one, ...rest } = o;
        o = { ...rest, ...(list[0] as Record<string, unknown>) };
      }
    }
    return o;
  };
  return walk(doc) as T;
}
