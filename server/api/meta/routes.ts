import { buildOpenApi } from '../../http/openapi.ts';
import { z } from 'zod';
import { defineRoute, type RouteSpec } from '../../http/route.ts';
import { named } from '../../model/schemas.ts';

const OpenApiDocumentSchema = named(
  'OpenApiDocument',
  z.object({ openapi: z.string(), info: z.object({ title: z.string(), version: z.string() }).catchall(z.unknown()) }).catchall(z.unknown()),
);
const HealthSchema = named('Health', z.object({ status: z.literal('ok'), role: z.enum(['hub', 'cloud']), dialect: z.enum(['sqlite', 'postgres']) }));

let cached: z.output<typeof OpenApiDocumentSchema> | undefined;

/** `all` is the whole route list (server/api/routes.ts), read when the document is first asked for. */
export const metaRoutes = (all: () => readonly RouteSpec[]): RouteSpec[] => [
  defineRoute({
    method: 'get',
    path: '/v1/openapi.json',
    response: OpenApiDocumentSchema,
    summary: 'This API described as OpenAPI 3.1, generated from the schemas that validate requests',
    tag: 'Meta',
    auth: 'none',
    sandbox: 'keyless',
    handler: async () => (cached ??= buildOpenApi(all())),
  }),

  defineRoute({
    method: 'get',
    path: '/health',
    response: HealthSchema,
    summary: 'Liveness and database check',
    tag: 'Meta',
    auth: 'none',
    sandbox: 'keyless',
    handler: async (c) => {
      await c.db.selectFrom('node_state').select('origin').executeTakeFirstOrThrow();
      return { status: 'ok' as const, role: c.services.config.role, dialect: c.services.dialect };
    },
  }),
];
