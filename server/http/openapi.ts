import { z } from 'zod';
import { errorComponent, errorResponses } from './openapi-errors.ts';
import type { RouteSpec } from './route.ts';
import { namedSchemas } from './schemas.ts';

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
      const def = (zodSchema as any)._zod?.def;
      const out = def?.type === 'pipe' ? def.out?._zod?.def : undefined;
      if (out?.type === 'enum') jsonSchema.enum = Object.values(out.entries);
    },
  }) as Record<string, any>;

const COMPONENT = '#/components/schemas/';

export const operationId = (r: Pick<RouteSpec, 'method' | 'path'>) => `${r.method}_${r.path.replace(/[/:{}]+/g, '_').replace(/^_|_$/g, '')}`;

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
  for (const [id, schema] of namedSchemas) registry.add(schema, { id });
  const idOf = new Map<z.ZodType, string>([...namedSchemas].map(([id, s]) => [s, id]));
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
  for (const id of namedSchemas.keys()) components[id] = bare(schemas[id]);
  const byRoute = new Map<RouteSpec, unknown>();
  for (const [r, id] of routeIds) byRoute.set(r, namedSchemas.has(id) ? { $ref: COMPONENT + id } : bare(schemas[id]));
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
    if (r.idempotent) parameters.push({ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: 255 } });
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
      ...(r.auth !== 'none' && { security: [{ [r.auth === 'widget' ? 'widgetKey' : 'secretKey']: r.scope ? [r.scope] : [] }] }),
      ...(r.scope && { 'x-scope': r.scope }),
      // what a sandbox key may do here (docs/integrators/api.md, "Sandbox keys")
      ...(r.auth !== 'none' && { 'x-sandbox': r.sandbox }),
    };
    // an empty body is read as {} (http/route.ts): the body is required when {} is not enough
    if (r.body) op.requestBody = { required: !r.body.safeParse({}).success, content: { 'application/json': { schema: toJson(r.body) } } };
    (paths[path] ??= {})[r.method] = op;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'comanda restaurant operations API', version: 'v1' },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    paths,
    components: {
      schemas: { Error: errorComponent(), ...components },
      securitySchemes: {
        secretKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'sk_live_… or sk_test_…' },
        widgetKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'wk_… for /public/orders' },
      },
    },
  };
}
