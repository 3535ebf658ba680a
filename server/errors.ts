/**
 * The one error type of the service. Every refusal a client can see is an ApiError with a
 * code from this closed set; the HTTP status and error type follow from the code, so a
 * handler can never answer a code with the wrong status.
 */
const CODES = {
  // 400 — the request itself is wrong
  parameter_missing: 400,
  parameter_invalid: 400,
  parameter_unknown: 400,
  invalid_json: 400,
  unknown_station: 400,
  invalid_cursor: 400,
  // 401 / 403 — who is asking
  api_key_missing: 401,
  api_key_invalid: 401,
  insufficient_scope: 403,
  key_type_not_allowed: 403,
  // 404
  resource_missing: 404,
  route_not_found: 404,
  // 405 / 409 / 413 / 415 / 422 / 429
  method_not_allowed: 405,
  state_conflict: 409,
  resource_conflict: 409,
  idempotency_key_in_use: 409,
  body_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  rate_limited: 429,
  // 431: a URL or headers past Node's 16 KiB limit (http/client-error.ts)
  request_too_large: 431,
  // 500 / 503
  internal_error: 500,
  service_unavailable: 503,

  // orders (issue 3)
  menu_item_unavailable: 400,
  modifier_invalid: 400,
  invalid_transition: 409,
  order_not_open: 409,
  delivery_address_required: 400,
  fleet_unavailable: 502,

  // reservations (issue 4)
  table_unavailable: 409,
  restaurant_closed: 400,

  // guest surface (issue 5): the spec's own codes
  WAITLIST_DISABLED: 404,
  WAITLIST_NOT_IN_PLAN: 403,
  WAITLIST_CLOSED: 409,
  WAITLIST_PARTY_TOO_LARGE: 400,
  WAITLIST_ALREADY_JOINED: 409,
  WAITLIST_ENTRY_NOT_FOUND: 404,
  WAITLIST_NOT_ACTIVE: 409,
  captcha_invalid: 400,
  // a guest write past the rate a bot check is asked at (or the venue asks it always): solve one and send again
  captcha_required: 403,

  // webhooks (issue 6)
  url_not_allowed: 400,

  // analytics (issue 7)

  // realtime (issue 8)

  // printers (issue 9)
  printer_not_configured: 409,

  // sync (sync/): the cloud's answers to a hub
  sync_code_invalid: 401,
  sync_credential_invalid: 401,
  sync_restaurant_mismatch: 403,
  sync_batch_invalid: 400,
  sync_protocol_mismatch: 400,
  sync_cursor_mismatch: 409,
  sync_restaurant_exists: 409,
  // payments (issue 25): more than the bill owes, or than a payment can give back
  amount_too_large: 400,
  // money (issue 39): the currency is fixed once money was taken in it
  currency_locked: 409,

  // back office (issue 15): staff sessions
  not_signed_in: 401,
  // service at the table: a void or discount by a role that needs a manager's PIN
  approval_required: 403,
  sign_in_failed: 401,
  csrf_token_invalid: 403,
  setup_code_required: 403,
  // a Host that is none of the server's names, on a cookie-authenticated request (DNS rebinding)
  host_not_allowed: 403,
} as const;

export type ErrorCode = keyof typeof CODES;

export type ErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'not_found_error'
  | 'conflict_error'
  | 'idempotency_error'
  | 'rate_limit_error'
  | 'api_error';

function typeFor(code: ErrorCode, status: number): ErrorType {
  if (code.startsWith('idempotency_')) return 'idempotency_error';
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 409) return 'conflict_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'api_error';
  return 'invalid_request_error';
}

export class ApiError extends Error {
  readonly status: number;
  readonly type: ErrorType;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly param: string | null = null,
    /** Extra response headers, e.g. Retry-After on 429. */
    readonly headers: Record<string, string> = {},
    /** Extra fields of the error body the client acts on (captcha_required: where the challenge is). */
    readonly extra: { challenge_url?: string } = {},
  ) {
    super(message);
    this.status = CODES[code];
    this.type = typeFor(code, this.status);
  }

  toBody() {
    return { error: { type: this.type, code: this.code, message: this.message, param: this.param, ...this.extra } };
  }
}

/**
 * An ApiError refusing a request's input (its body, query, path or key), made without a stack
 * trace: such a refusal is answered, never logged (the error middleware logs 5xx only), and
 * capturing the stack of Koa's frames cost about 10 µs, as much as the rest of the route's
 * own work on a refused order.
 */
export function refusal(code: ErrorCode, message: string, param: string | null = null): ApiError {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return new ApiError(code, message, param);
  } finally {
    Error.stackTraceLimit = limit;
  }
}

export const notFound = (what: string, id: string, param: string | null = 'id') =>
  new ApiError('resource_missing', `No such ${what}: '${id}'`, param);

/** The row a retrieve found, or the one 404 for it: `mustExist(await findX(db, …, id), 'x', id)`. */
export function mustExist<T>(row: T | null | undefined, what: string, id: string, param: string | null = 'id'): T {
  if (row === null || row === undefined) throw notFound(what, id, param);
  return row;
}

export const errorStatus = (code: ErrorCode): number => CODES[code];

/** Every code of the closed set (the OpenAPI document lists them). */
export const ERROR_CODES = Object.keys(CODES) as ErrorCode[];

/**
 * PostgreSQL refused a value as data (class 22: not a number for a bigint, out of range, an
 * invalid byte): what the request carried does not fit its column. Input checks should catch
 * these first; this keeps any that slip through a 4xx, as on SQLite, which stores them.
 */
export const isBadValue = (err: unknown): boolean => {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code);
};

/** A unique constraint refused a write, on either dialect: two writers raced for one thing. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

// PostgreSQL classes and codes that mean "not now" rather than "never": connection
// exceptions (08), insufficient resources (53), operator intervention (57P0x), and a
// serialization or deadlock abort that outlived its retries (db/transact.ts).
const PG_UNAVAILABLE = /^(08|53|57P0[1-4]$|40001$|40P01$)/;
const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|FULL|IOERR)/;
const NET_UNAVAILABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND']);

/**
 * The database could not take the request now (busy, full, unreachable, restarting): the
 * client should come back, not give up. pg-pool reports a lost or unobtainable connection
 * only in words, so those are matched by message.
 */
export function isUnavailable(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : '';
  if (code && (PG_UNAVAILABLE.test(code) || SQLITE_UNAVAILABLE.test(code) || NET_UNAVAILABLE.has(code))) return true;
  const message = typeof e?.message === 'string' ? e.message : '';
  return /^(Connection terminated|timeout exceeded when trying to connect)/.test(message);
}
