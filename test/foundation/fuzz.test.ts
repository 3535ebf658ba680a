import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../server/http/route.ts';
import { DIALECTS } from '../helpers/db.ts';
import { openApiDocument } from '../helpers/openapi-conformance.ts';
import { startHub, type ApiResponse, type TestHub } from '../helpers/server.ts';

/**
 * Every route against hostile input, generated from the OpenAPI document: malformed, boundary
 * and oversized values in every path, query and body parameter (under the keys the document
 * names, so the values reach the code behind validation too), with valid keys. Whatever comes
 * in: never a 5xx, never a write on a 4xx (the change log's head stays), and every answer is
 * what the document says (ApiClient checks it against the schema: the one error shape, a
 * documented code). Fixed seed and a bounded count in CI; a longer run is
 * `FUZZ_RUNS=5000 npx vitest run test/foundation/fuzz.test.ts` (FUZZ_SEED picks another seed).
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 12);
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);

type Schema = Record<string, any>;

/** Text that has broken servers: empty, huge, odd Unicode, numbers and dates that are not, injections. */
const NASTY_TEXT = [
  '',
  ' ',
  'x'.repeat(300),
  'x'.repeat(70_000),
  '💥🍝',
  '\u202eevil',
  'e\u0301',
  "' OR 1=1 --",
  '"; DROP TABLE orders; --',
  '%',
  '_',
  '\\',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  '-1',
  '0',
  '-0',
  '1.5',
  '1e309',
  'NaN',
  'Infinity',
  '9007199254740993',
  '99999999999999999999999',
  'true',
  'null',
  '[]',
  '{}',
  '2026-02-30',
  '2026-13-01',
  '0000-00-00',
  '9999-12-31',
  '24:00',
  '23:59',
  '-05:00',
  'constructor',
  '__proto__',
  'hasOwnProperty',
  'Europe/Nowhere',
  'http://127.0.0.1:9/hook',
  'javascript:alert(1)',
  '*',
  'a,b,,c',
  'items.menu_item.category.parent_category.x',
];
/** Only in bodies: a URL cannot carry a lone surrogate, JSON can. */
const BODY_ONLY_TEXT = ['\ud800', 'a\udfffb'];
const NASTY_NUMBERS = [0, -1, 1, 1.5, -0.5, 0.0001, 2 ** 31, -(2 ** 31) - 1, 2 ** 53, 2 ** 53 + 2, 1e21, 1e308, -1e308, Number.MIN_VALUE];
const WRONG_TYPES = [null, true, false, [], {}, [[[]]], { a: { b: { c: 1 } } }, 'text', 12345];

function resolve(schema: Schema, root: Schema): Schema {
  if (schema?.$ref?.startsWith('#/$defs/')) return root.$defs?.[schema.$ref.slice('#/$defs/'.length)] ?? {};
  if (schema?.$ref?.startsWith('#/components/schemas/')) return openApiDocument().components.schemas[schema.$ref.split('/').pop()] ?? {};
  return schema ?? {};
}

const safe = (n: unknown): n is number => typeof n === 'number' && Math.abs(n) <= Number.MAX_SAFE_INTEGER;

/** Values for a schema: mostly near-valid (so they pass the outer checks), often at or past a bound, sometimes wrong. */
function valueFor(raw: Schema, root: Schema, ids: string[], inBody: boolean, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(raw, root);
  const text = fc.constantFrom(...NASTY_TEXT, ...(inBody ? BODY_ONLY_TEXT : []), ...ids);
  const wrong = fc.constantFrom<unknown>(...WRONG_TYPES);
  const options: fc.Arbitrary<unknown>[] = [];
  const alts = s.anyOf ?? s.oneOf;
  if (alts && depth < 4) options.push(...alts.map((a: Schema) => valueFor(a, root, ids, inBody, depth + 1)));
  if (s.const !== undefined) options.push(fc.constant(s.const));
  if (s.enum) options.push(fc.constantFrom(...s.enum));
  const types: string[] = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  for (const t of types) {
    if (t === 'string') {
      const lengths = [s.minLength, s.maxLength].filter(safe).flatMap((n: number) => [n - 1, n, n + 1]).filter((n) => n >= 0);
      options.push(fc.string({ unit: 'grapheme', maxLength: 40 }), text, fc.constantFrom(...(lengths.length ? lengths : [1])).map((n) => 'é'.repeat(n)));
      if (s.format === 'email') options.push(fc.constantFrom('a@b.co', 'A@B.CO', 'x@y', '@', 'a@b.co\n'));
    }
    if (t === 'integer' || t === 'number') {
      const lo = safe(s.minimum) ? s.minimum : safe(s.exclusiveMinimum) ? s.exclusiveMinimum : -1000;
      const hi = safe(s.maximum) ? s.maximum : safe(s.exclusiveMaximum) ? s.exclusiveMaximum : 1000;
      options.push(
        t === 'integer' ? fc.integer({ min: Math.ceil(lo), max: Math.max(Math.ceil(lo), Math.floor(hi)) }) : fc.double({ min: lo, max: hi, noNaN: true }),
        fc.constantFrom(lo - 1, lo, hi, hi + 1, ...NASTY_NUMBERS),
      );
    }
    if (t === 'boolean') options.push(fc.boolean());
    if (t === 'null') options.push(fc.constant(null));
    if (t === 'array' && depth < 4) {
      const item = valueFor(s.items ?? {}, root, ids, inBody, depth + 1);
      options.push(fc.array(item, { maxLength: 3 }));
      if (safe(s.maxItems)) options.push(item.map((v) => Array.from({ length: s.maxItems + 1 }, () => v)));
    }
    if (t === 'object' && depth < 4) {
      if (s.properties) {
        const model = Object.fromEntries(Object.entries<Schema>(s.properties).map(([k, p]) => [k, valueFor(p, root, ids, inBody, depth + 1)]));
        options.push(fc.record(model, { requiredKeys: (s.required ?? []).filter((k: string) => k in model) }));
      } else {
        const values = typeof s.additionalProperties === 'object' ? valueFor(s.additionalProperties, root, ids, inBody, depth + 1) : wrong;
        options.push(fc.dictionary(fc.constantFrom('de', 'en', 'x', '', '__proto__', 'constructor', 'a-B'), values, { maxKeys: 3 }));
      }
    }
  }
  if (options.length === 0) options.push(text, fc.constantFrom(...NASTY_NUMBERS));
  return fc.oneof({ arbitrary: fc.oneof(...options), weight: 5 }, { arbitrary: wrong, weight: 1 });
}

/** What a query or path parameter carries: text. */
const asText = (v: unknown): string => (typeof v === 'string' ? v : Array.isArray(v) ? v.map(asText).join(',') : JSON.stringify(v));

interface Fixtures {
  /** a real id for a path like /v1/menu_items/:id, by the path before the parameter */
  byPath: Map<string, string>;
  all: string[];
}

describe.each(DIALECTS)('every route against hostile input on %s', (dialect) => {
  let hub: TestHub;
  let fixtures: Fixtures;
  beforeAll(async () => {
    hub = await startHub(dialect);
    fixtures = await seed(hub);
  });
  afterAll(() => hub?.close());

  const head = async () => {
    const r = await (hub.server.services.db as any).selectFrom('change_log').select((eb: any) => eb.fn.max('seq').as('seq')).executeTakeFirst();
    return Number(r?.seq ?? 0);
  };

  const doc = openApiDocument();
  for (const route of registry) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    const op = doc.paths[path][route.method];
    it(`${route.method.toUpperCase()} ${path}`, async () => {
      const ids = fixtures.all;
      const pathParams = (op.parameters ?? []).filter((p: any) => p.in === 'path');
      const queryParams = (op.parameters ?? []).filter((p: any) => p.in === 'query');
      const bodySchema = op.requestBody?.content?.['application/json']?.schema;
      const realFor = (name: string) => {
        const prefix = route.path.slice(0, route.path.indexOf(`:${name}`));
        const real = fixtures.byPath.get(`${prefix}:${name}`);
        return real ? [real] : [];
      };
      // a real id most of the time, so the body reaches the code behind the lookup
      const pathValue = (p: any, real: string[]) => {
        const hostile = valueFor(p.schema, p.schema, ids, false).map(asText);
        return real.length ? fc.oneof({ arbitrary: fc.constantFrom(...real), weight: 3 }, { arbitrary: hostile, weight: 1 }) : hostile;
      };
      const request = fc.record({
        params: fc.record(
          Object.fromEntries(
            pathParams.map((p: any) => [
              p.name,
              pathValue(p, [...realFor(p.name), ...(p.name === 'itemIndex' ? ['0', '1'] : [])]),
            ]),
          ),
        ),
        query: fc.record(
          Object.fromEntries(queryParams.map((p: any) => [p.name, valueFor(p.schema, p.schema, ids, false).map(asText)])),
          { requiredKeys: [] },
        ),
        body: bodySchema ? fc.option(valueFor(bodySchema, bodySchema, ids, true), { freq: 8 }) : fc.constant(null),
        key: route.idempotent ? fc.option(fc.constantFrom('k-1', 'k-2', 'x'.repeat(300), ' '), { freq: 2 }) : fc.constant(null),
      });
      await fc.assert(
        fc.asyncProperty(request, async (req) => {
          let url = route.path.replace(/:(\w+)/g, (_m, name) => encodeURIComponent(String((req.params as any)[name] || 'x')));
          const qs = new URLSearchParams(Object.entries(req.query as Record<string, string>)).toString();
          if (qs) url += `?${qs}`;
          const key = route.auth === 'secret' ? hub.keys.secret : route.auth === 'widget' ? hub.keys.widget : null;
          const before = await head();
          // ApiClient checks the answer against the document (status documented, body of its schema)
          const r: ApiResponse = await hub.api.request(route.method.toUpperCase(), url, {
            key,
            ...(req.body !== null && route.method !== 'get' && route.method !== 'delete' ? { body: req.body } : {}),
            ...(req.key ? { headers: { 'idempotency-key': req.key } } : {}),
          });
          const what = `${route.method.toUpperCase()} ${url.slice(0, 300)} ${JSON.stringify(req.body)?.slice(0, 300)} → ${r.status} ${JSON.stringify(r.body)?.slice(0, 300)}`;
          expect(r.status, what).toBeLessThan(500);
          if (r.status >= 400) {
            expect(Object.keys(r.body.error).sort(), what).toEqual(['code', 'message', 'param', 'type']);
            expect(await head(), `a refused request wrote: ${what}`).toBe(before);
          }
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
    });
  }
});

/** A restaurant with one of everything, so path ids are sometimes real and bodies can name real records. */
async function seed(hub: TestHub): Promise<Fixtures> {
  const api = hub.api;
  const byPath = new Map<string, string>();
  const made = async (r: Promise<ApiResponse>, ...paths: string[]) => {
    const res = await r;
    if (res.status >= 300) throw new Error(`fixture: ${JSON.stringify(res.body)}`);
    for (const p of paths) byPath.set(p, res.body.id ?? res.body.token);
    return res.body;
  };
  await api.patch('/v1/settings', {
    opening_hours: Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, [{ open: '00:00', close: '23:59' }]])),
  });
  const category = await made(api.post('/v1/menu_categories', { name: 'Mains' }), '/v1/menu_categories/:id');
  const group = await made(api.post('/v1/modifier_groups', { name: 'Sides', modifiers: [{ name: 'Fries' }] }), '/v1/modifier_groups/:id');
  const item = await made(api.post('/v1/menu_items', { name: 'Soup', category: category.id, price: 500, modifier_groups: [group.id] }), '/v1/menu_items/:id');
  const table = await made(api.post('/v1/tables', { number: 1, capacity: 4 }), '/v1/tables/:id');
  const order = await made(
    api.post('/v1/orders', { type: 'dine_in', table: table.id, items: [{ menu_item: item.id, quantity: 1 }] }),
    '/v1/orders/:id',
    '/public/orders/:id',
    '/public/orders/delivery/:id',
  );
  await api.patch(`/v1/orders/${order.id}`, { status: 'placed' });
  const qr = await made(api.post('/v1/qr_codes', { table: table.id }), '/v1/qr_codes/:id');
  byPath.set('/public/qr/:token', qr.token);
  const guestOrder = await made(api.post(`/public/qr/${qr.token}/orders`, { items: [{ menuItemId: item.id, quantity: 1 }] }, { key: null }));
  byPath.set('/public/qr/:token/orders/:orderId', guestOrder.id);
  const staff = await made(api.post('/v1/staff', { name: 'Ana', email: 'ana@example.com' }), '/v1/staff/:id');
  await made(api.post('/v1/shifts', { user: staff.id }), '/v1/shifts/:id');
  await made(api.post('/v1/inventory_items', { name: 'Flour', unit: 'kg', quantity: 10, unit_cost: 120, reorder_level: 2 }), '/v1/inventory_items/:id');
  await made(api.post('/v1/customers', { name: 'Guest', email: 'guest@example.com' }), '/v1/customers/:id');
  const printer = await made(api.post('/v1/printers', { name: 'Kitchen', transport: { type: 'tcp', host: '127.0.0.1', port: 9 }, is_active: false }), '/v1/printers/:id');
  const jobs = await api.get('/v1/print_jobs');
  if (jobs.body.data?.[0]) byPath.set('/v1/print_jobs/:id', jobs.body.data[0].id);
  await made(api.post('/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/hook', enabled_events: ['*'], status: 'disabled' }), '/v1/webhook_endpoints/:id');
  await made(api.post('/v1/waitlist', { guest_name: 'Walk-in', party_size: 2 }), '/v1/waitlist/:id');
  byPath.set('/v1/stations/:key', 'kitchen');
  byPath.set('/public/restaurants/:slug', hub.restaurant.slug);
  const joined = await api.post(`/public/restaurants/${hub.restaurant.slug}/waitlist/join`, { guestName: 'Eve', partySize: 2, phone: '+4915112345678', consent: true }, { key: null });
  if (joined.status === 201) byPath.set('/public/waitlist/:token', joined.body.token);
  const reservation = await api.post('/v1/reservations', { guest: { name: 'Bo' }, party_size: 2, date: '2026-12-01', time: '19:00' });
  if (reservation.status === 201) byPath.set('/v1/reservations/:id', reservation.body.id);
  await made(api.post(`/public/restaurants/${hub.restaurant.slug}/feedback`, { rating: 5 }, { key: null }), '/v1/feedback/:id');
  const events = await api.get('/v1/events');
  if (events.body.data?.[0]) byPath.set('/v1/events/:id', events.body.data[0].id);
  const all = [...new Set([...byPath.values(), printer.id, order.id, item.id, category.id, group.id, table.id, staff.id])];
  return { byPath, all };
}
