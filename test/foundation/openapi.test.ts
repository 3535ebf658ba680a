import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, errorStatus } from '../../server/errors.ts';
import { errorCodesOf } from '../../server/http/openapi-errors.ts';
import { routes } from '../../server/api/routes.ts';
import { checkAnswer } from '../helpers/openapi-conformance.ts';
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
    for (const route of routes) {
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
    for (const route of routes.filter((x) => x.body)) {
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

  it('is a valid OpenAPI 3.1 document (checked by an OpenAPI validator, references resolved)', async () => {
    const doc = (await hub.api.get('/v1/openapi.json', { key: null })).body;
    const result = await new Validator().validate(doc);
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
    expect(result.valid).toBe(true);
    // every $ref points at a component that exists
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThan(50);
    for (const name of new Set(refs)) expect(doc.components.schemas[name], name).toBeDefined();
    // generators name methods after operationIds: each is unique
    const ids = Object.values<any>(doc.paths).flatMap((ops) => Object.values<any>(ops).map((op) => op.operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('gives every route its success response from a schema, and its error responses in the one error shape', async () => {
    const doc = (await hub.api.get('/v1/openapi.json', { key: null })).body;
    for (const route of routes) {
      const where = `${route.method} ${route.path}`;
      expect(route.response ?? route.responseType, `${where} declares no response`).toBeDefined();
      const op = doc.paths[route.path.replace(/:(\w+)/g, '{$1}')][route.method];
      const success = op.responses[String(route.status ?? 200)];
      expect(success.content, where).toBeDefined();
      if (!route.responseType) expect(success.content['application/json'].schema, where).toBeDefined();
      // each error status lists exactly the route's codes of that status
      for (const code of errorCodesOf(route)) {
        const r = op.responses[String(errorStatus(code))];
        expect(r, `${where} ${code}`).toBeDefined();
        const [ref, narrow] = r.content['application/json'].schema.allOf;
        expect(ref.$ref).toBe('#/components/schemas/Error');
        expect(narrow.properties.error.properties.code.enum).toContain(code);
      }
    }
    expect(doc.components.schemas.Error.properties.error.properties.code.enum).toEqual(ERROR_CODES);
    // a presenter's schema is one component that routes refer to
    expect(doc.paths['/v1/menu_items/{id}'].get.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/MenuItem' });
    expect(doc.components.schemas.MenuItem.properties.category.anyOf).toEqual([{ type: 'string' }, { $ref: '#/components/schemas/MenuCategory' }]);
    expect(doc.paths['/v1/orders/{id}'].patch.responses['409'].content['application/json'].schema.allOf[1].properties.error.properties.code.enum).toContain(
      'invalid_transition',
    );
  });

  it('the conformance check catches a body that drifts from its schema and an undocumented status', () => {
    const item = { id: 'mi_1', object: 'menu_item' };
    expect(checkAnswer('GET', '/v1/menu_items/mi_1', 200, 'application/json', item)?.problem).toMatch(/does not match/);
    expect(checkAnswer('GET', '/v1/menu_items/mi_1', 418, 'application/json', {})?.problem).toMatch(/not documented/);
    const refused = { error: { type: 'conflict_error', code: 'invalid_transition', message: 'x', param: null } };
    expect(checkAnswer('GET', '/v1/menu_items/mi_1', 409, 'application/json', refused)?.problem).toMatch(/not documented|does not match/);
    const missing = { error: { type: 'not_found_error', code: 'resource_missing', message: 'x', param: 'id', request_id: 'req_1', doc_url: '/docs#error-resource_missing' } };
    expect(checkAnswer('GET', '/v1/menu_items/mi_1', 404, 'application/json', missing)).toBeNull();
  });

  it('a URL past the HTTP parser\'s limit is refused in the one error shape too (431, documented on every route)', async () => {
    const r = await hub.api.get(`/v1/menu_items?category=${'x'.repeat(20_000)}`);
    expect(r.status).toBe(431);
    expect(r.body).toEqual({ error: { type: 'invalid_request_error', code: 'request_too_large', message: expect.any(String), param: null, request_id: expect.stringMatching(/^req_/), doc_url: '/docs#error-request_too_large' } });
    // the server still answers on a new connection
    expect((await hub.api.get('/health', { key: null })).status).toBe(200);
  });

  it('serves a readable reference at /docs that loads nothing from elsewhere', async () => {
    const page = await fetch(`${hub.url}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    const html = await page.text();
    // every route and every schema is on the page
    for (const route of routes) expect(html, route.path).toContain(route.path.replace(/:(\w+)/g, '{$1}'));
    expect(html).toContain('id="schema-MenuItem"');
    // every asset is same-origin, and is served
    const refs = [...html.matchAll(/\b(?:src|href)="([^"#][^"]*)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      expect(ref, ref).toMatch(/^\/(?!\/)/);
      const asset = await fetch(new URL(ref, hub.url));
      expect(asset.status, ref).toBe(200);
    }
    expect(html).not.toMatch(/<script\b/);
    expect(refs).toContain('/docs/assets/docs.css');
  });
});
