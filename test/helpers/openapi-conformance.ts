import { appendFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { buildOpenApi } from '../../server/http/openapi.ts';
import type { RouteSpec } from '../../server/http/route.ts';
import { routes } from '../../server/api/routes.ts';

/**
 * Checks real answers against the OpenAPI document the server publishes: the status must be
 * one the route documents, and the body must match that response's schema (JSON Schema
 * 2020-12, by ajv). Every request the API tests make through ApiClient goes through here,
 * so a presenter or a refusal that drifts from the document fails the test that saw it.
 */

const DOC_ID = 'https://comanda.invalid/openapi.json';

interface Matched {
  route: RouteSpec;
  path: string;
}

let state: { doc: any; ajv: Ajv2020; validators: Map<string, ValidateFunction> } | null = null;

export function openApiDocument(): any {
  return load().doc;
}

function load() {
  if (state) return state;
  const doc = JSON.parse(JSON.stringify(buildOpenApi(routes)));
  // strict off: the document carries OpenAPI keywords (`description`, `x-…`) next to the schemas
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addSchema({ ...doc, $id: DOC_ID });
  state = { doc, ajv, validators: new Map() };
  return state;
}

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

const patterns = new Map<RouteSpec, RegExp>();
function patternOf(r: RouteSpec): RegExp {
  let re = patterns.get(r);
  if (!re) {
    re = new RegExp(`^${r.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:\w+/g, '[^/]+')}$`);
    patterns.set(r, re);
  }
  return re;
}

/** The route koa would run: the first registered one whose method and path match. */
export function matchRoute(method: string, url: string): Matched | null {
  const path = new URL(url, 'http://x').pathname;
  const m = method.toLowerCase();
  const route = routes.find((r) => r.method === m && patternOf(r).test(path));
  return route ? { route, path: route.path.replace(/:(\w+)/g, '{$1}') } : null;
}

export interface Nonconformity {
  method: string;
  path: string;
  status: number;
  problem: string;
}

/** What is wrong with an answer, or null when it conforms (or no route answered it). */
export function checkAnswer(method: string, url: string, status: number, contentType: string | null, body: unknown): Nonconformity | null {
  const found = matchRoute(method, url);
  if (!found) return null;
  const { doc, ajv, validators } = load();
  const op = doc.paths[found.path][found.route.method];
  const where = { method: found.route.method.toUpperCase(), path: found.path, status };
  const response = op.responses[String(status)];
  if (!response) {
    const code = (body as any)?.error?.code;
    return { ...where, problem: `status ${status}${code ? ` (${code})` : ''} is not documented for this route` };
  }
  const mediaType = Object.keys(response.content ?? {})[0];
  if (!mediaType) return null;
  if (!contentType?.startsWith(mediaType)) return { ...where, problem: `answered ${contentType}, documented ${mediaType}` };
  if (mediaType !== 'application/json') return null;
  const ref = `${DOC_ID}#/${pointer('paths', found.path, found.route.method, 'responses', String(status), 'content', mediaType, 'schema')}`;
  let validate = validators.get(ref);
  if (!validate) {
    validate = ajv.getSchema(ref);
    if (!validate) throw new Error(`no schema at ${ref}`);
    validators.set(ref, validate);
  }
  if (validate(body)) return null;
  const errors = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
  return { ...where, problem: `body does not match the documented schema: ${errors.join('; ')}` };
}

/**
 * Throws on an answer that does not conform: the API test that made the request then fails.
 * With OPENAPI_REPORT=file every nonconformity is appended there instead (to survey a whole run);
 * OPENAPI_SEEN=file lists every route and status that was checked.
 */
export function assertConforms(method: string, url: string, status: number, contentType: string | null, body: unknown): void {
  const wrong = checkAnswer(method, url, status, contentType, body);
  if (process.env.OPENAPI_SEEN && !wrong) {
    // which routes and statuses a run checked (to see what the tests leave unchecked)
    const found = matchRoute(method, url);
    if (found) appendFileSync(process.env.OPENAPI_SEEN, `${found.route.method} ${found.path} ${status}\n`);
  }
  if (!wrong) return;
  if (process.env.OPENAPI_REPORT) {
    appendFileSync(process.env.OPENAPI_REPORT, `${JSON.stringify({ ...wrong, body: JSON.stringify(body).slice(0, 300) })}\n`);
    return;
  }
  throw new Error(`OpenAPI: ${wrong.method} ${wrong.path} → ${wrong.status}: ${wrong.problem}\n${JSON.stringify(body).slice(0, 500)}`);
}

/**
 * What is wrong with a webhook delivery's body, or null: it must be of the document's
 * `webhooks` entry for its type (an unknown type is wrong too).
 */
export function checkWebhookBody(body: unknown): string | null {
  const { doc, ajv, validators } = load();
  const type = (body as { type?: unknown } | null)?.type;
  if (typeof type !== 'string' || !doc.webhooks?.[type]) return `no webhook in the document for type ${JSON.stringify(type)}`;
  const ref = `${DOC_ID}#/${pointer('webhooks', type, 'post', 'requestBody', 'content', 'application/json', 'schema')}`;
  let validate = validators.get(ref);
  if (!validate) {
    validate = ajv.getSchema(ref);
    if (!validate) throw new Error(`no schema at ${ref}`);
    validators.set(ref, validate);
  }
  if (validate(body)) return null;
  return `${type}: ${(validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`).join('; ')}`;
}
