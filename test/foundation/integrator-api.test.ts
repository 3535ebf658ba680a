import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../server/model/events.ts';
import { createLogger } from '../../server/logger.ts';
import { expectError } from '../helpers/assert.ts';
import { DIALECTS } from '../helpers/db.ts';
import { openApiDocument } from '../helpers/openapi-conformance.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { seedMenu, type Menu } from '../orders/fixtures.ts';

/**
 * The API as an integrator's tools see it (issue 43): a bearer key, a request id on every
 * answer and in its log line, Idempotency-Key on every POST and PATCH, event types that are
 * a closed list, and a document a generator reads without guessing.
 */
describe.each(DIALECTS)('the API for integrators on %s', (dialect) => {
  let hub: TestHub;
  let menu: Menu;
  const lines: Record<string, any>[] = [];
  beforeAll(async () => {
    const logger = createLogger({ level: 'debug', format: 'json', console: { write: (l: string) => void lines.push(JSON.parse(l)) } });
    hub = await startHub(dialect, { logger });
    menu = await seedMenu(hub);
  });
  afterAll(() => hub?.close());

  it('takes the key as Authorization: Bearer too; X-API-Key stays, a bad bearer is refused like a bad key', async () => {
    const bearer = await hub.api.get('/v1/orders', { key: null, headers: { authorization: `Bearer ${hub.keys.secret}` } });
    expect(bearer.status).toBe(200);
    expect((await hub.api.get('/v1/orders')).status).toBe(200);
    expectError(await hub.api.get('/v1/orders', { key: null, headers: { authorization: 'Bearer sk_live_nope' } }), 401, 'api_key_invalid');
    expectError(await hub.api.get('/v1/orders', { key: null, headers: { authorization: `Basic ${hub.keys.secret}` } }), 401, 'api_key_missing');
    // a widget key by bearer on its own surface
    expect((await hub.api.get('/public/orders/kitchen', { key: null, headers: { authorization: `Bearer ${hub.keys.widget}` } })).status).toBe(200);
  });

  it('names every request: Request-Id on every answer, in the error body with its doc_url, and in its log line', async () => {
    const ok = await hub.api.get('/v1/orders');
    const okId = ok.headers.get('request-id');
    expect(okId).toMatch(/^req_[\w-]{16}$/);
    const refused = await hub.api.get('/v1/orders/ord_nope');
    expectError(refused, 404, 'resource_missing');
    const id = refused.body.error.request_id;
    expect(id).not.toBe(okId);
    // a client cannot plant one
    const planted = await hub.api.get('/v1/orders', { headers: { 'request-id': 'req_mine' } });
    expect(planted.headers.get('request-id')).not.toBe('req_mine');
    // the line of each request carries its id (a refusal at info, a success at debug)
    const line = lines.find((l) => l.request_id === id);
    expect(line).toMatchObject({ msg: 'request', method: 'GET', path: '/v1/orders/ord_nope', status: 404, code: 'resource_missing', level: 30 });
    expect(lines.find((l) => l.request_id === okId)).toMatchObject({ status: 200, level: 20 });
    // a method the path does not take: 405 with Allow; OPTIONS: 200, empty, with Allow, no key
    const wrongMethod = await hub.api.request('PUT', '/v1/orders', { body: {} });
    expectError(wrongMethod, 405, 'method_not_allowed');
    expect(wrongMethod.headers.get('allow')).toMatch(/GET.*POST|POST.*GET/);
    const options = await fetch(`${hub.url}/v1/orders`, { method: 'OPTIONS' });
    expect(options.status).toBe(200);
    expect(await options.text()).toBe('');
    expect(options.headers.get('allow')).toMatch(/GET.*POST|POST.*GET/);
    expect(options.headers.get('request-id')).toMatch(/^req_/);
    // unknown routes and methods too; the doc_url's anchor exists in /docs
    const unknown = await hub.api.get('/v1/nothing_here');
    expectError(unknown, 404, 'route_not_found');
    const docs = await fetch(`${hub.url}/docs`);
    expect(docs.headers.get('request-id')).toMatch(/^req_/);
    const html = await docs.text();
    for (const code of ['route_not_found', 'resource_missing', 'method_not_allowed']) expect(html).toContain(`id="error-${code}"`);
    // and shows the webhooks and the examples of the document
    expect(html).toContain('id="webhook_order_created"');
    expect(html).toContain('<details class="example"><summary>Example</summary>');
  });

  it('replays a PATCH and an action POST sent again with the same Idempotency-Key and body', async () => {
    const key = { 'idempotency-key': 'patch-once' };
    const first = await hub.api.patch(`/v1/menu_items/${menu.water}`, { description: 'still' }, { headers: key });
    expect(first.status).toBe(200);
    // changed in between: the replay still answers what the first request answered
    await hub.api.patch(`/v1/menu_items/${menu.water}`, { description: 'sparkling' });
    const again = await hub.api.patch(`/v1/menu_items/${menu.water}`, { description: 'still' }, { headers: key });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await hub.api.get(`/v1/menu_items/${menu.water}`)).body.description).toBe('sparkling');
    expectError(await hub.api.patch(`/v1/menu_items/${menu.water}`, { description: 'other' }, { headers: key }), 422, 'idempotency_key_reused');

    const order = (await hub.api.post('/v1/orders', { type: 'takeout', items: [{ menu_item: menu.water, quantity: 1 }] })).body;
    const cancel = () => hub.api.post(`/v1/orders/${order.id}/cancel`, { cancel_reason: 'no show' }, { headers: { 'idempotency-key': 'cancel-1' } });
    const c1 = await cancel();
    const c2 = await cancel();
    expect([c1.status, c2.status]).toEqual([200, 200]);
    expect(c2.body).toEqual(c1.body);
    expect(c2.headers.get('idempotent-replayed')).toBe('true');
    const events = (await hub.api.get('/v1/events?type=order.cancelled&limit=100')).body.data.filter((e: any) => e.data.object.id === order.id);
    expect(events).toHaveLength(1);
    // a refused request keeps nothing: the key is free for the corrected retry
    const voidKey = { 'idempotency-key': 'void-1' };
    expectError(await hub.api.post(`/v1/orders/${order.id}/items/5/void`, { reason: 'x' }, { headers: voidKey }), 409);
    expect((await hub.server.services.db.selectFrom('idempotency_keys').select('key').where('key', 'like', '%void-1').execute()).length).toBe(0);
  });

  it('refuses unknown event types with the known ones named; takes *, order.* and exact types', async () => {
    const bad = await hub.api.post('/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/hook', enabled_events: ['order.created', 'nonexistent.event'] });
    expectError(bad, 400, 'parameter_invalid', 'enabled_events[1]');
    expect(bad.body.error.message).toContain('nonexistent.event');
    for (const t of EVENT_TYPES) expect(bad.body.error.message).toContain(t);
    expect(bad.body.error.message).toContain('order.*');
    for (const enabled_events of [['*'], ['order.*', 'reservation.cancelled']]) {
      const r = await hub.api.post('/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/hook', enabled_events, status: 'disabled' });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      expect(r.body.enabled_events).toEqual(enabled_events);
    }
    expectError(await hub.api.get('/v1/events?type=bogus.type'), 400, 'parameter_invalid', 'type');
    expectError(await hub.api.get('/v1/events?type=order.'), 400, 'parameter_invalid', 'type');
    const listed = await hub.api.get('/v1/events?type=order.*&limit=100');
    expect(listed.status).toBe(200);
    expect(listed.body.data.length).toBeGreaterThan(0);
    expect(listed.body.data.every((e: any) => e.type.startsWith('order.'))).toBe(true);
    expect((await hub.api.get('/v1/events?type=*&limit=1')).status).toBe(200);
  });

  it('parses numeric query parameters from the query string and refuses them out of their documented bounds', async () => {
    expect((await hub.api.get('/v1/orders?limit=100')).status).toBe(200);
    for (const limit of ['0', '-1', '101', '1.5', 'ten']) expectError(await hub.api.get(`/v1/orders?limit=${limit}`), 400, 'parameter_invalid', 'limit');
    const limit = openApiDocument().paths['/v1/orders'].get.parameters.find((p: any) => p.name === 'limit');
    expect(limit.schema).toEqual({ type: 'integer', minimum: 1, maximum: 100 });
  });
});

describe('the OpenAPI document as a generator reads it', () => {
  const doc = openApiDocument();
  const ops = Object.entries<Record<string, any>>(doc.paths).flatMap(([path, m]) => Object.entries<any>(m).map(([method, op]) => ({ path, method, op })));

  it('says which operations take no key, names a server and bearer auth, and has plain operation ids', () => {
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/' })]);
    expect(doc.components.securitySchemes.bearerKey).toEqual(expect.objectContaining({ type: 'http', scheme: 'bearer' }));
    for (const { path, method, op } of ops) {
      expect(Array.isArray(op.security), `${method} ${path}`).toBe(true);
      expect(op.operationId, `${method} ${path}`).toMatch(/^[A-Za-z0-9_]+$/);
    }
    expect(ops.find((o) => o.path === '/v1/openapi.json')!.op).toMatchObject({ security: [], operationId: 'get_v1_openapi_json' });
  });

  it('types numbers in the query as integers with bounds, never as patterned strings', () => {
    for (const { path, method, op } of ops) {
      for (const p of op.parameters.filter((x: any) => x.in === 'query')) {
        expect(p.schema.pattern === '^-?\\d+$', `${method} ${path} ${p.name}`).toBe(false);
      }
    }
    const created = ops.find((o) => o.path === '/v1/orders' && o.method === 'get')!.op.parameters.find((p: any) => p.name === 'created.gte');
    expect(created.schema.type).toBe('integer');
  });

  it('has no one-choice oneOf or anyOf anywhere', () => {
    const one = JSON.stringify(doc).match(/"(oneOf|anyOf)":\[\{[^[\]]*\}\]/g) ?? [];
    const walk = (v: any): number =>
      Array.isArray(v) ? v.reduce((n, x) => n + walk(x), 0) : v && typeof v === 'object' ? Object.entries(v).reduce((n, [k, x]) => n + ((k === 'oneOf' || k === 'anyOf') && Array.isArray(x) && x.length === 1 ? 1 : 0) + walk(x), 0) : 0;
    expect(walk(doc), one.join('\n')).toBe(0);
  });

  it('declares Idempotency-Key on every keyed POST and PATCH', () => {
    const missing = ops
      .filter(({ method, op }) => (method === 'post' || method === 'patch') && op.security.length > 0 && !op.responses['200']?.content?.['image/svg+xml'])
      .filter(({ op }) => !op.parameters.some((p: any) => p.name === 'Idempotency-Key' && p.in === 'header'))
      .map(({ method, path }) => `${method} ${path}`);
    expect(missing).toEqual([]);
  });
});
