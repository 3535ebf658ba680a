/**
 * Examples for the OpenAPI document: one per request body, success answer and component,
 * made from each schema and the fixture values below (what a field of that name holds in a
 * real restaurant). test/foundation/openapi-examples.test.ts validates every example against
 * its schema, so a schema change that an example no longer fits fails there.
 */

import { PREFIXES } from '../ids.ts';

type Schema = Record<string, any>;

const ULID = '01KA3Y5Q8ZB6W4N2M7R9T1V3X5';
const PREFIX_BY_OBJECT = new Map<string, string>(
  Object.entries(PREFIXES).map(([kind, prefix]) => [kind.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), prefix]),
);

/** An object's own id carries its kind's prefix (an event's `evt_…`, a menu item's `mi_…`), as the API's ids do. */
function ownId(s: Schema): string | undefined {
  const prefix = PREFIX_BY_OBJECT.get(s.properties?.object?.const);
  return prefix && s.properties?.id?.type === 'string' ? `${prefix}_${ULID}` : undefined;
}

const T = 1793620800; // 2026-11-02 12:00 UTC, the test clock's start

/** Values by field name. */
const BY_NAME: Record<string, unknown> = {
  id: 'ord_01KA3Y5Q8ZB6W4N2M7R9T1V3X5',
  currency: 'EUR',
  email: 'ada@example.com',
  guest_email: 'ada@example.com',
  phone: '+49301234567',
  guest_phone: '+49301234567',
  name: 'Margherita',
  guest_name: 'Ada Lovelace',
  description: 'Tomato, mozzarella, basil',
  url: 'https://example.com/hooks/comanda',
  image_url: 'https://example.com/img/margherita.jpg',
  timezone: 'Europe/Berlin',
  locale: 'de-DE',
  language: 'de',
  date: '2026-11-05',
  start_date: '2026-11-01',
  end_date: '2026-11-30',
  time: '19:00',
  open: '12:00',
  close: '23:00',
  from: '12:00',
  to: '23:00',
  slug: 'test-bistro',
  order_number: 'A-042',
  tax_rate: 0.19,
  rate: 0.19,
  quantity: 2,
  party_size: 2,
  capacity: 4,
  min_capacity: 1,
  number: 12,
  course: 1,
  seat: 1,
  sort_order: 0,
  limit: 10,
  type: 'order.created',
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  key: 'sk_live_51ExampleOnly',
  token: 'tok_example',
  reason: 'regular guest',
  cancel_reason: 'guest left',
  notes: 'no onions',
  special_requests: 'window seat',
  color: '#1f5fbf',
  host: '192.168.1.50',
  port: 9100,
};

/** Texts that match the patterns a schema may carry, tried in order. */
const PATTERN_CANDIDATES = [
  '2026-11-05',
  '19:00',
  '+49301234567',
  'EUR',
  'eur',
  'de',
  'de-DE',
  'order.created',
  '#1f5fbf',
  'test-bistro',
  'kitchen',
  '1234',
  '123456',
  'a',
  'A-042',
  'ord_01KA3Y5Q8ZB6W4N2M7R9T1V3X5',
  'https://example.com/hooks/comanda',
  'Europe/Berlin',
  '0 3 * * *',
  // sync: a hybrid logical clock (sync/hlc.ts) and a web origin without a path
  '0193a1b2c3d4.0001.hub_01',
  'https://venue.example.com',
];

function isTime(name: string): boolean {
  return name === 'created' || name === 'updated' || name.endsWith('_at') || name === 'expires' || name === 'since';
}

function clamp(n: number, s: Schema): number {
  let v = n;
  if (s.minimum !== undefined && v < s.minimum) v = s.minimum;
  if (s.exclusiveMinimum !== undefined && v <= s.exclusiveMinimum) v = s.exclusiveMinimum + 1;
  if (s.maximum !== undefined && v > s.maximum) v = s.maximum;
  if (s.exclusiveMaximum !== undefined && v >= s.exclusiveMaximum) v = s.exclusiveMaximum - 1;
  if (s.type === 'integer') v = Math.round(v);
  return v;
}

function sampleString(s: Schema, name: string): string {
  const fits = (v: string) =>
    (s.pattern === undefined || new RegExp(s.pattern, 'u').test(v)) &&
    (s.minLength === undefined || v.length >= s.minLength) &&
    (s.maxLength === undefined || v.length <= s.maxLength);
  if (s.format === 'date-time') return '2026-11-02T12:00:00Z';
  if (s.format === 'email') return 'ada@example.com';
  if (s.format === 'uri' || s.format === 'url') return 'https://example.com/';
  const named = BY_NAME[name];
  if (typeof named === 'string' && fits(named)) return named;
  if (s.pattern !== undefined) {
    const c = PATTERN_CANDIDATES.find(fits);
    if (c !== undefined) return c;
  }
  let v = name || 'text';
  if (s.minLength !== undefined && v.length < s.minLength) v = v.padEnd(s.minLength, 'x');
  if (s.maxLength !== undefined && v.length > s.maxLength) v = v.slice(0, s.maxLength);
  return v;
}

export class ExampleMaker {
  private memo = new Map<string, unknown>();
  constructor(private readonly components: Record<string, Schema>) {}

  /** An example of `schema`; `name` is the field it fills (it picks the fixture). */
  of(schema: Schema | undefined, name = '', depth = 0): unknown {
    const s = schema ?? {};
    if (s.$ref) {
      const id = String(s.$ref).split('/').pop()!;
      if (this.memo.has(id)) return structuredClone(this.memo.get(id));
      const v = depth > 8 ? null : this.of(this.components[id], name, depth + 1);
      if (depth <= 8) this.memo.set(id, v);
      return structuredClone(v);
    }
    if (s.const !== undefined) return s.const;
    if (s.enum) return (s.enum as unknown[]).find((e) => e === BY_NAME[name]) ?? s.enum[0];
    if (s.default !== undefined) return s.default;
    if (s.allOf) return Object.assign({}, ...s.allOf.map((x: Schema) => this.of(x, name, depth + 1)));
    const choices = s.anyOf ?? s.oneOf;
    if (choices) {
      const pick = choices.find((c: Schema) => c.type !== 'null' && !c.$ref) ?? choices.find((c: Schema) => c.type !== 'null') ?? choices[0];
      return this.of({ ...s, anyOf: undefined, oneOf: undefined, ...pick }, name, depth + 1);
    }
    const types: string[] = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
    const type = types.find((t) => t !== 'null') ?? types[0];
    switch (type) {
      case 'null':
        return null;
      case 'string':
        return sampleString(s, name);
      case 'integer':
      case 'number': {
        const named = BY_NAME[name];
        const base = typeof named === 'number' ? named : isTime(name) ? T : /amount|total|price|subtotal|tip/.test(name) ? 1450 : 1;
        return clamp(type === 'integer' ? Math.round(base) : base, s);
      }
      case 'boolean':
        return name.startsWith('is_') || name === 'livemode' || name === 'enabled';
      case 'array': {
        if (depth > 8 || s.maxItems === 0) return [];
        const n = Math.max(1, s.minItems ?? 1);
        return Array.from({ length: n }, () => this.of(s.items, singular(name), depth + 1));
      }
      case 'object':
      default: {
        if (!s.properties) {
          if (type !== 'object') return {};
          // a map: one entry, when the map says what its values are
          const values = typeof s.additionalProperties === 'object' ? s.additionalProperties : null;
          const key = s.propertyNames?.enum?.[0] ?? (s.propertyNames ? sampleString(s.propertyNames, name) : name === 'translations' ? 'de' : 'key');
          return values && depth <= 8 ? { [key]: this.of(values, '', depth + 1) } : {};
        }
        const required = new Set<string>(s.required ?? []);
        const out: Record<string, unknown> = {};
        const id = ownId(s);
        for (const [k, p] of Object.entries<Schema>(s.properties)) {
          if (!required.has(k) && depth > 4) continue;
          out[k] = k === 'id' && id ? id : this.of(p, k, depth + 1);
        }
        return out;
      }
    }
  }
}

const singular = (name: string) => (name.endsWith('ies') ? `${name.slice(0, -3)}y` : name.endsWith('s') ? name.slice(0, -1) : name);

/**
 * Puts an example on every JSON request body and success answer of the document, and on
 * every component. Done after the document is built, on the document itself.
 */
export function addExamples(doc: { paths: Record<string, Record<string, any>>; webhooks: Record<string, Record<string, any>>; components: { schemas: Record<string, Schema> } }): void {
  const maker = new ExampleMaker(doc.components.schemas);
  for (const [id, schema] of Object.entries(doc.components.schemas)) {
    if (id === 'Error') continue;
    schema.examples = [maker.of({ $ref: `#/components/schemas/${id}` })];
  }
  doc.components.schemas.Error.examples = [
    {
      error: {
        type: 'not_found_error',
        code: 'resource_missing',
        message: "No such order: 'ord_01KA3Y5Q8ZB6W4N2M7R9T1V3X5'",
        param: 'id',
        request_id: 'req_3fQk9XnB1cLwZp7R',
        doc_url: '/docs#error-resource_missing',
      },
    },
  ];
  for (const ops of [...Object.values(doc.paths), ...Object.values(doc.webhooks)]) {
    for (const op of Object.values<any>(ops)) {
      const body = op.requestBody?.content?.['application/json'];
      if (body) body.example = maker.of(body.schema);
      for (const [status, r] of Object.entries<any>(op.responses)) {
        const media = r.content?.['application/json'];
        if (media && status.startsWith('2')) media.example = maker.of(media.schema);
      }
    }
  }
}
