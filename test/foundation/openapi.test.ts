import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../server/http/route.ts';
import { startHub, type TestHub } from '../helpers/server.ts';

describe('OpenAPI document', () => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub('sqlite');
  });
  afterAll(() => hub?.close());

  it('describes every mounted route from the same zod schemas', async () => {
    const r = await hub.api.get('/v1/openapi.json', { key: null });
    expect(r.status).toBe(200);
    expect(r.body.openapi).toBe('3.1.0');
    for (const route of registry) {
      const path = route.path.replace(/:(\w+)/g, '{$1}');
      expect(r.body.paths[path]?.[route.method], `${route.method} ${path}`).toBeDefined();
    }
    const create = r.body.paths['/v1/menu_items'].post;
    expect(create.requestBody.content['application/json'].schema.required).toEqual(expect.arrayContaining(['name', 'category', 'price']));
    expect(create.requestBody.content['application/json'].schema.properties.tax_rate.anyOf ?? create.requestBody.content['application/json'].schema.properties.tax_rate).toBeDefined();
    expect(create['x-scope']).toBe('menu:write');
    // a body is required only where an empty one would be refused
    expect(create.requestBody.required).toBe(true);
    expect(r.body.paths['/v1/print_jobs/{id}/reprint'].post.requestBody.required).toBe(false);
    expect(r.body.paths['/v1/events/{id}/resend'].post.requestBody.required).toBe(false);
    for (const route of registry.filter((x) => x.body)) {
      const path = route.path.replace(/:(\w+)/g, '{$1}');
      expect(r.body.paths[path][route.method].requestBody.required, `${route.method} ${path}`).toBe(!route.body!.safeParse({}).success);
    }
    const list = r.body.paths['/v1/menu_items'].get;
    expect(list.parameters.map((p: any) => p.name)).toEqual(expect.arrayContaining(['limit', 'starting_after', 'ending_before', 'category', 'expand[]']));
  });

  it('changes when a schema changes (it is generated, not written by hand)', async () => {
    const { buildOpenApi } = await import('../../server/http/openapi.ts');
    const { z } = await import('zod');
    const doc = buildOpenApi([
      { method: 'post', path: '/x', summary: 's', tag: 't', auth: 'none', sandbox: 'keyless', body: z.object({ only_here: z.number().int().max(7) }), handler: async () => ({}) },
    ]);
    expect((doc.paths['/x'] as any).post.requestBody.content['application/json'].schema.properties.only_here.maximum).toBe(7);
  });
});
