import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../server/api/routes.ts';
import { idempotencyOf } from '../../server/http/route.ts';
import { DIALECTS } from '../helpers/db.ts';
import { solvedCaptcha } from '../guest/helpers.ts';
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

const RUNS = Number(process.env.FUZZ_RUNS ?? 8);
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
/** Words the API understands where its schema only says "text": statuses, types, times, contacts. */
const WORDS = [
  'dine_in',
  'dine-in',
  'takeout',
  'delivery',
  'placed',
  'preparing',
  'ready',
  'served',
  'completed',
  'cancelled',
  'pending',
  'confirmed',
  'kitchen',
  'bar',
  '19:00',
  '2026-12-01',
  '2026-11-02',
  'Europe/Berlin',
  'eur',
  '+4915112345678',
  'ana@example.com',
  'Rare',
  'de',
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

/**
 * A value that fits the schema (so a request gets past validation to the code behind it):
 * enum members, numbers within bounds, text of an allowed length or pattern, real ids.
 */
function validFor(raw: Schema, root: Schema, ids: string[], depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(raw, root);
  const alts = s.anyOf ?? s.oneOf;
  if (alts && depth < 5) return fc.oneof(...alts.map((a: Schema) => validFor(a, root, ids, depth + 1)));
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const types: string[] = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  const options: fc.Arbitrary<unknown>[] = [];
  for (const t of types) {
    if (t === 'string') {
      const min = safe(s.minLength) ? s.minLength : 0;
      const max = safe(s.maxLength) ? Math.max(min, Math.min(s.maxLength, 40)) : 40;
      if (s.format === 'email') options.push(fc.constantFrom('ana@example.com', 'x.y@example.org'));
      else if (s.format === 'uri' || s.format === 'url') options.push(fc.constantFrom('http://127.0.0.1:9/hook', 'https://example.org/a.png'));
      else if (s.pattern) {
        let re: RegExp | null = null;
        try {
          re = new RegExp(s.pattern);
        } catch {
          // a pattern JavaScript cannot read: fall back to plain text
        }
        const fits = re ? WORDS.filter((w) => re.test(w)) : [];
        options.push(re ? fc.stringMatching(re).filter((v) => v.length <= 200) : fc.string({ minLength: min, maxLength: max }));
        if (fits.length) options.push(fc.constantFrom(...fits), fc.constantFrom(...fits));
      } else {
        const fits = [...WORDS, ...ids].filter((w) => w.length >= min && w.length <= (safe(s.maxLength) ? s.maxLength : Infinity));
        options.push(fc.string({ unit: 'grapheme', minLength: min, maxLength: max }), ...(fits.length ? [fc.constantFrom(...fits), fc.constantFrom(...fits)] : []));
      }
    }
    if (t === 'integer' || t === 'number') {
      const lo = safe(s.minimum) ? s.minimum : safe(s.exclusiveMinimum) ? s.exclusiveMinimum + 1 : -1000;
      const hi = safe(s.maximum) ? s.maximum : safe(s.exclusiveMaximum) ? s.exclusiveMaximum - 1 : 1000;
      options.push(t === 'integer' ? fc.integer({ min: Math.ceil(lo), max: Math.max(Math.ceil(lo), Math.floor(hi)) }) : fc.double({ min: lo, max: Math.max(lo, hi), noNaN: true }));
    }
    if (t === 'boolean') options.push(fc.boolean());
    if (t === 'null') options.push(fc.constant(null));
    if (t === 'array' && depth < 5) {
      const min = safe(s.minItems) ? s.minItems : 0;
      options.push(fc.array(validFor(s.items ?? {}, root, ids, depth + 1), { minLength: min, maxLength: Math.max(min, Math.min(safe(s.maxItems) ? s.maxItems : 3, 3)) }));
    }
    if (t === 'object' && depth < 5) options.push(objectOf(s, root, ids, depth, validFor));
  }
  return options.length ? fc.oneof(...options) : fc.constantFrom<unknown>('x', 1, true, null);
}

/** An object of the schema's keys: the required ones always, the others now and then. */
function objectOf(s: Schema, root: Schema, ids: string[], depth: number, field: (s: Schema, root: Schema, ids: string[], depth: number) => fc.Arbitrary<unknown>) {
  if (!s.properties) {
    const values = typeof s.additionalProperties === 'object' ? field(s.additionalProperties, root, ids, depth + 1) : fc.constantFrom<unknown>(...WRONG_TYPES);
    return fc.dictionary(fc.constantFrom('de', 'en', 'x', '', '__proto__', 'constructor', 'a-B', 'monday'), values, { maxKeys: 3 });
  }
  const model = Object.fromEntries(
    Object.entries<Schema>(s.properties).map(([k, p]) => {
      const arb = field(p, root, ids, depth + 1);
      // a field that names a record gets a real one of its kind most of the time
      const real = HINTS[k]?.();
      if (real === undefined) return [k, arb];
      const known = typeof real === 'string' ? [p.type === 'array' ? [real] : real] : real;
      return [k, fc.oneof({ arbitrary: fc.constantFrom(...known), weight: 3 }, { arbitrary: arb, weight: 1 })];
    }),
  );
  return fc.record(model, { requiredKeys: (s.required ?? []).filter((k: string) => k in model) });
}

/** A value at or past a bound, of the wrong type, oversized or odd: what a hostile client sends. */
function hostileFor(raw: Schema, root: Schema, ids: string[], inBody: boolean, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(raw, root);
  const options: fc.Arbitrary<unknown>[] = [fc.constantFrom(...NASTY_TEXT, ...(inBody ? BODY_ONLY_TEXT : [])), fc.constantFrom<unknown>(...WRONG_TYPES, ...NASTY_NUMBERS)];
  const types: string[] = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  for (const t of types) {
    if (t === 'string') {
      const lengths = [s.minLength, s.maxLength].filter(safe).flatMap((n: number) => [n - 1, n, n + 1]).filter((n) => n >= 0);
      if (lengths.length) options.push(fc.constantFrom(...lengths).map((n) => 'é'.repeat(n)));
      options.push(fc.string({ unit: 'grapheme', maxLength: 40 }));
    }
    if (t === 'integer' || t === 'number') {
      const bounds = [s.minimum, s.maximum, s.exclusiveMinimum, s.exclusiveMaximum].filter(safe).flatMap((n: number) => [n - 1, n, n + 1, n + 0.5]);
      if (bounds.length) options.push(fc.constantFrom(...bounds));
    }
    if (t === 'array' && depth < 5) {
      const item = validFor(s.items ?? {}, root, ids, depth + 1);
      options.push(item.map((v) => Array.from({ length: (safe(s.maxItems) ? s.maxItems : 1000) + 1 }, () => v)));
      options.push(fc.array(field(s.items ?? {}, root, ids, inBody, depth + 1), { minLength: 1, maxLength: 3 }));
    }
    if (t === 'object' && depth < 5) options.push(objectOf(s, root, ids, depth, (x, r, i, d) => field(x, r, i, inBody, d)));
  }
  const alts = s.anyOf ?? s.oneOf;
  if (alts && depth < 5) options.push(...alts.map((a: Schema) => hostileFor(a, root, ids, inBody, depth + 1)));
  return fc.oneof(...options);
}

/** Most fields valid, some hostile: each request then breaks a few things at once, at any depth. */
function field(s: Schema, root: Schema, ids: string[], inBody: boolean, depth = 0): fc.Arbitrary<unknown> {
  return fc.oneof({ arbitrary: validFor(s, root, ids, depth), weight: 4 }, { arbitrary: hostileFor(s, root, ids, inBody, depth), weight: 1 });
}

/** Body fields that name a record, and where the current fixtures keep one of its kind. */
let current: Fixtures | null = null;
const byKind = (path: string) => () => current?.byPath.get(path);
const words = (...w: unknown[]) => () => w;
/** A field's name says more than its schema where a transform hides the rule (zod's input side). */
const HINTS: Record<string, () => string | unknown[] | undefined> = {
  type: words('dine_in', 'takeout', 'delivery', 'dine-in', 'Take_Out'),
  email: words('ana@example.com', 'ANA@Example.org'),
  guest_email: words('bo@example.com'),
  customer_email: words('bo@example.com'),
  customerEmail: words('bo@example.com'),
  phone: words('+4915112345678', '030 1234567'),
  guest_phone: words('+4915112345678'),
  customer_phone: words('+4915112345678'),
  customerPhone: words('+4915112345678'),
  url: words('http://127.0.0.1:9/hook', 'https://example.org/hook'),
  image_url: words('https://example.org/a.png'),
  date: words('2026-11-20', '2026-12-01', '2027-11-03'),
  time: words('19:00', '12:30', '23:59'),
  consent: words(true),
  delivery_address: words('Hauptstr. 1, Berlin'),
  deliveryAddress: words('Hauptstr. 1, Berlin'),
  status: words('placed', 'preparing', 'ready', 'served', 'completed', 'cancelled', 'confirmed', 'arrived', 'seated', 'enabled', 'disabled'),
  cancel_reason: words('guest left'),
  cancelReason: words('guest left'),
  timezone: words('Europe/Berlin', 'America/New_York', 'Asia/Kathmandu'),
  currency: words('eur', 'jpy'),
  enabled_events: words(['*'], ['order.created']),
  menu_item: byKind('/v1/menu_items/:id'),
  menuItemId: byKind('/v1/menu_items/:id'),
  category: byKind('/v1/menu_categories/:id'),
  parent_category: byKind('/v1/menu_categories/:id'),
  modifier_groups: byKind('/v1/modifier_groups/:id'),
  table: byKind('/v1/tables/:id'),
  tableId: byKind('/v1/tables/:id'),
  server: byKind('/v1/staff/:id'),
  user: byKind('/v1/staff/:id'),
  printer: byKind('/v1/printers/:id'),
  backup_printer: byKind('/v1/printers/:id'),
  endpoint: byKind('/v1/webhook_endpoints/:id'),
  orderId: byKind('/v1/orders/:id'),
  station: () => 'kitchen',
};

/** The value with probability p, else null (absent). */
const sometimes = <T>(arb: fc.Arbitrary<T>, p: number): fc.Arbitrary<T | null> =>
  fc.oneof({ arbitrary: fc.constant(null), weight: Math.round((1 - p) * 10) }, { arbitrary: arb, weight: Math.round(p * 10) });

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
  let round = 0;
  beforeAll(async () => {
    hub = await startHub(dialect);
  });
  afterAll(() => hub?.close());

  const head = async () => {
    const r = await (hub.server.services.db as any).selectFrom('change_log').select((eb: any) => eb.fn.max('seq').as('seq')).executeTakeFirst();
    return Number(r?.seq ?? 0);
  };

  const doc = openApiDocument();
  // reads first, then writes, then the moves that end a record, deletes last
  const rank = (r: (typeof routes)[number]) =>
    r.method === 'get' ? 0 : r.method === 'delete' ? 3 : /\/(disable|cancel|seat|clock_out|leave|status)$/.test(r.path) ? 2 : 1;
  // a hub serves every route but the cloud's side of sync (role: cloud), which test/sync drives
  for (const route of routes.filter((r) => !r.role).sort((a, b) => rank(a) - rank(b))) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    const op = doc.paths[path][route.method];
    it(`${route.method.toUpperCase()} ${path}`, async () => {
      // a write may have retired what an earlier route's requests used (deactivated, cancelled,
      // deleted): a route that acts on one record gets fresh ones
      if (!fixtures) fixtures = await seed(hub, round++);
      else if (route.method !== 'get' && route.path.includes(':')) {
        const keys = [...route.path.matchAll(/:(\w+)/g)].map((m) => `${route.path.slice(0, m.index)}:${m[1]}`);
        fixtures = await seed(hub, round++, fixtures, new Set(keys));
      }
      current = fixtures;
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
        const hostile = field(p.schema, p.schema, ids, false).map(asText);
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
        // cursors and expand paths are refused unless exactly right: sent now and then, not half the time
        query: fc.record(
          Object.fromEntries(
            queryParams.map((p: any) => [
              p.name,
              sometimes(field(p.schema, p.schema, ids, false).map(asText), /^(expand\[\]|starting_after|ending_before)$/.test(p.name) ? 0.1 : 0.5),
            ]),
          ),
        ),
        body: bodySchema ? fc.option(field(bodySchema, bodySchema, ids, true), { freq: 8 }) : fc.constant(null),
        key: idempotencyOf(route) ? sometimes(fc.constantFrom('k-1', 'k-2', 'x'.repeat(300), ' '), 0.2) : fc.constant(null),
      });
      await fc.assert(
        fc.asyncProperty(request, async (req) => {
          let url = route.path.replace(/:(\w+)/g, (_m, name) => encodeURIComponent(String((req.params as any)[name] || 'x')));
          const qs = new URLSearchParams(Object.entries(req.query as Record<string, string | null>).filter((e): e is [string, string] => e[1] !== null)).toString();
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
            expect(Object.keys(r.body.error).sort(), what).toEqual(['code', 'doc_url', 'message', 'param', 'request_id', 'type']);
            expect(await head(), `a refused request wrote: ${what}`).toBe(before);
          }
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
      // a long run (FUZZ_RUNS) takes as long as it takes
    }, Math.max(30_000, RUNS * 300));
  }
});

/** A restaurant with one of everything, so path ids are sometimes real and bodies can name real records. */
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/**
 * Records for the requests to name. The first call makes one of each; later calls (`only`: the
 * path keys a route's parameters resolve to) remake just the records that route acts on, on top
 * of the others, since a write route may have retired them. Each step needs only what earlier
 * steps made.
 */
async function seed(hub: TestHub, n: number, into?: Fixtures, only?: Set<string>): Promise<Fixtures> {
  const api = hub.api;
  const byPath = into?.byPath ?? new Map<string, string>();
  // what a record is made from is remade with it: an earlier route may have retired that too
  const NEEDS: Record<string, string[]> = {
    '/v1/menu_items/:id': ['/v1/menu_categories/:id', '/v1/modifier_groups/:id'],
    '/v1/orders/:id': ['/v1/tables/:id', '/v1/menu_items/:id'],
    '/public/orders/:id': ['/v1/orders/:id'],
    '/public/orders/delivery/:id': ['/v1/orders/:id'],
    '/v1/qr_codes/:id': ['/v1/tables/:id', '/v1/menu_items/:id'],
    '/public/qr/:token': ['/v1/qr_codes/:id'],
    '/public/qr/:token/orders/:orderId': ['/v1/qr_codes/:id'],
    '/v1/reservations/:id': ['/v1/tables/:id'],
  };
  const wanted = new Set<string>();
  const close = (k: string) => {
    if (wanted.has(k)) return;
    wanted.add(k);
    for (const d of NEEDS[k] ?? []) close(d);
  };
  for (const k of only ?? []) close(k);
  const want = (...keys: string[]) => !only || keys.some((k) => wanted.has(k));
  const made = async (r: Promise<ApiResponse>, ...paths: string[]) => {
    const res = await r;
    if (res.status >= 300) throw new Error(`fixture: ${JSON.stringify(res.body)}`);
    for (const p of paths) byPath.set(p, res.body.id ?? res.body.token);
    return res.body;
  };
  const get = (key: string) => byPath.get(key)!;
  const slug = hub.restaurant.slug;
  if (want('/public/restaurants/:slug', '/public/waitlist/:token', '/v1/reservations/:id')) {
    // open all day with the waitlist on, whatever the requests before changed
    await api.patch('/v1/settings', {
      opening_hours: Object.fromEntries(WEEKDAYS.map((d) => [d, [{ open: '00:00', close: '23:59' }]])),
      closed_dates: [],
      waitlist: { enabled: true, max_party_size: 20 },
    });
  }
  if (want('/v1/menu_categories/:id')) await made(api.post('/v1/menu_categories', { name: 'Mains' }), '/v1/menu_categories/:id');
  if (want('/v1/modifier_groups/:id')) await made(api.post('/v1/modifier_groups', { name: 'Sides', modifiers: [{ name: 'Fries' }] }), '/v1/modifier_groups/:id');
  if (want('/v1/menu_items/:id')) {
    const body = { name: 'Soup', category: get('/v1/menu_categories/:id'), price: 500, modifier_groups: [get('/v1/modifier_groups/:id')] };
    await made(api.post('/v1/menu_items', body), '/v1/menu_items/:id');
  }
  if (want('/v1/tables/:id')) await made(api.post('/v1/tables', { number: 1000 + n, capacity: 4 }), '/v1/tables/:id');
  if (want('/v1/orders/:id', '/public/orders/:id', '/public/orders/delivery/:id')) {
    const order = await made(
      api.post('/v1/orders', { type: 'dine_in', table: get('/v1/tables/:id'), items: [{ menu_item: get('/v1/menu_items/:id'), quantity: 1 }] }),
      '/v1/orders/:id',
      '/public/orders/:id',
      '/public/orders/delivery/:id',
    );
    await api.patch(`/v1/orders/${order.id}`, { status: 'placed' });
  }
  if (want('/v1/qr_codes/:id', '/public/qr/:token', '/public/qr/:token/orders/:orderId')) {
    const qr = await made(api.post('/v1/qr_codes', { table: get('/v1/tables/:id') }), '/v1/qr_codes/:id');
    byPath.set('/public/qr/:token', qr.token);
    const items = [{ menuItemId: get('/v1/menu_items/:id'), quantity: 1 }];
    await made(api.post(`/public/qr/${qr.token}/orders`, { items }, { key: null }), '/public/qr/:token/orders/:orderId');
  }
  if (want('/v1/staff/:id', '/v1/shifts/:id')) {
    const staff = await made(api.post('/v1/staff', { name: 'Ana', email: `ana${n}@example.com` }), '/v1/staff/:id');
    await made(api.post('/v1/shifts', { user: staff.id }), '/v1/shifts/:id');
  }
  if (want('/v1/inventory_items/:id')) {
    await made(api.post('/v1/inventory_items', { name: 'Flour', unit: 'kg', quantity: 10, unit_cost: 120, reorder_level: 2 }), '/v1/inventory_items/:id');
  }
  if (want('/v1/customers/:id')) await made(api.post('/v1/customers', { name: 'Guest', email: `guest${n}@example.com` }), '/v1/customers/:id');
  if (want('/v1/printers/:id', '/v1/print_jobs/:id')) {
    const printer = await made(api.post('/v1/printers', { name: 'Kitchen', transport: { type: 'tcp', host: '127.0.0.1', port: 9 } }), '/v1/printers/:id');
    await made(api.post(`/v1/printers/${printer.id}/test`), '/v1/print_jobs/:id');
  }
  if (want('/v1/webhook_endpoints/:id')) {
    // a restaurant has at most 16: reuse one the requests made
    const endpoint = (await api.get('/v1/webhook_endpoints?limit=1')).body.data[0];
    if (endpoint) byPath.set('/v1/webhook_endpoints/:id', endpoint.id);
    else await made(api.post('/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/hook', enabled_events: ['*'], status: 'disabled' }), '/v1/webhook_endpoints/:id');
  }
  if (want('/v1/waitlist/:id')) await made(api.post('/v1/waitlist', { guest_name: 'Walk-in', party_size: 2 }), '/v1/waitlist/:id');
  byPath.set('/v1/stations/:key', 'kitchen');
  byPath.set('/public/restaurants/:slug', slug);
  if (want('/public/waitlist/:token')) {
    const join = { guestName: 'Eve', partySize: 2, email: `eve${n}@example.com`, consent: true, captchaToken: await solvedCaptcha(hub) };
    await made(api.post(`/public/restaurants/${slug}/waitlist/join`, join, { key: null }), '/public/waitlist/:token');
  }
  if (want('/v1/reservations/:id')) {
    const booking = { guest_name: 'Bo', party_size: 2, table: get('/v1/tables/:id'), date: '2026-12-01', time: `${String(10 + (n % 12)).padStart(2, '0')}:00` };
    await made(api.post('/v1/reservations', booking), '/v1/reservations/:id');
  }
  if (want('/v1/feedback/:id')) await made(api.post(`/public/restaurants/${slug}/feedback`, { rating: 5, captchaToken: await solvedCaptcha(hub) }, { key: null }), '/v1/feedback/:id');
  if (want('/v1/events/:id')) {
    const events = await api.get('/v1/events?limit=1');
    if (events.body.data?.[0]) byPath.set('/v1/events/:id', events.body.data[0].id);
  }
  return { byPath, all: [...new Set(byPath.values())] };
}
