import { z } from 'zod';
import { ApiError, ERROR_CODES, errorStatus, type ErrorCode } from '../errors.ts';
import { idempotencyOf, type RouteSpec } from './route.ts';

/** The one error body (errors.ts), as the component every error response refers to. */
export function errorComponent() {
  const types = [...new Set(ERROR_CODES.map((c) => new ApiError(c, '').type))];
  return {
    type: 'object',
    description: 'The one error body of the API. `code` is from a closed set and fixes the HTTP status.',
    properties: {
      error: {
        type: 'object',
        properties: {
          type: { type: 'string', enum: types },
          code: { type: 'string', enum: ERROR_CODES },
          message: { type: 'string' },
          param: { type: ['string', 'null'], description: 'the parameter at fault, when one is' },
          request_id: { type: 'string', description: 'the request, as in the Request-Id header and the server log: quote it to support' },
          doc_url: { type: 'string', description: "the code's entry in /docs (relative to the server)" },
          challenge_url: { type: 'string', description: 'captcha_required only: where to fetch the bot check to solve (relative to the server); send the solution as captchaToken' },
        },
        required: ['type', 'code', 'message', 'param', 'request_id', 'doc_url'],
        additionalProperties: false,
      },
    },
    required: ['error'],
    additionalProperties: false,
  };
}

const hasCursor = (q: z.ZodType | undefined) => q instanceof z.ZodObject && 'starting_after' in q.shape;

/**
 * The codes a route can answer: those its kind shares (derived from what the route declares,
 * so a new route is documented without anyone listing them) and its own (`errors`).
 */
export function errorCodesOf(r: RouteSpec): ErrorCode[] {
  const codes = new Set<ErrorCode>(['parameter_invalid', 'parameter_unknown', 'request_too_large', 'internal_error', 'service_unavailable']);
  const add = (...c: ErrorCode[]) => c.forEach((x) => codes.add(x));
  // every route reads a body but GET/DELETE (http/body.ts)
  if (r.method !== 'get' && r.method !== 'delete') add('invalid_json', 'unsupported_media_type', 'body_too_large', 'resource_conflict');
  if (r.body || r.query || r.params) add('parameter_missing');
  if (hasCursor(r.query)) add('invalid_cursor');
  if (r.auth !== 'none') add('api_key_missing', 'api_key_invalid', 'key_type_not_allowed', 'rate_limited');
  // a staff session may call any keyed route; its writes need the session's CSRF token (http/session.ts)
  if (r.auth !== 'none' && r.method !== 'get') add('csrf_token_invalid');
  // …and a session's cookie counts only under one of the server's names (http/hosts.ts)
  if (r.auth !== 'none') add('host_not_allowed');
  if (r.scope) add('insufficient_scope');
  if (r.preflight) add('rate_limited');
  if (r.params) add('resource_missing');
  if (idempotencyOf(r)) add('idempotency_key_in_use', 'idempotency_key_reused');
  for (const c of r.errors ?? []) add(c);
  return [...codes];
}

/** The error responses of a route, one per status, each naming its codes. */
export function errorResponses(r: RouteSpec): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(r)) {
    const s = errorStatus(code);
    byStatus.set(s, [...(byStatus.get(s) ?? []), code]);
  }
  const out: Record<string, unknown> = {};
  for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    out[String(status)] = {
      description: codes.join(', '),
      ...(status === 429 || status === 503 ? { headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'seconds' } } } : {}),
      content: {
        'application/json': {
          schema: {
            allOf: [
              { $ref: '#/components/schemas/Error' },
              { type: 'object', properties: { error: { type: 'object', properties: { code: { enum: codes } } } } },
            ],
          },
        },
      },
    };
  }
  return out;
}
