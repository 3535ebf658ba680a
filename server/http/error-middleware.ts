import type { Context, Next } from 'koa';
import { ApiError, isBadValue, isUnavailable, isUniqueViolation } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { requestIdOf } from './request-id.ts';

/** Where /docs describes an error code (http/docs.ts makes the anchor). */
export const docUrlOf = (code: string) => `/docs#error-${code}`;

/** An error body as answered: the request's id and the code's entry in /docs added. */
export function answeredErrorBody(ctx: Context, body: { error: { code: string } & Record<string, unknown> }) {
  return { error: { ...body.error, request_id: requestIdOf(ctx), doc_url: docUrlOf(body.error.code) } };
}

/** The one place an error becomes an HTTP answer. Anything not an ApiError is a 500 that says nothing inside. */
export function errorMiddleware(logger: Logger) {
  return async (ctx: Context, next: Next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new ApiError('route_not_found', `Unrecognized request URL (${ctx.method}: ${ctx.path}).`);
      }
      if (ctx.status === 405 && ctx.body === undefined) {
        throw new ApiError('method_not_allowed', `${ctx.method} is not allowed on ${ctx.path}.`);
      }
    } catch (err) {
      const apiErr = toApiError(err);
      if (apiErr.status >= 500) logger.error({ err, request_id: requestIdOf(ctx), method: ctx.method, path: ctx.path, status: apiErr.status }, 'request failed');
      ctx.status = apiErr.status;
      for (const [k, v] of Object.entries(apiErr.headers)) ctx.set(k, v);
      ctx.body = answeredErrorBody(ctx, apiErr.toBody());
    }
  };
}

/**
 * A unique-constraint violation means two writers raced for the same thing (a slug, a key,
 * a number): that is the client's conflict, not a server fault. A database that cannot take
 * the request now (busy, full, unreachable) is a 503 with Retry-After, which clients retry;
 * with the same Idempotency-Key a retried create never makes a second record. Anything else
 * unexpected is a 500 whose message says nothing about the inside (no SQL, no stack).
 */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (isUniqueViolation(err)) {
    return new ApiError('resource_conflict', 'The request conflicts with a record that was just written. Retry it.');
  }
  if (isBadValue(err)) return new ApiError('parameter_invalid', 'A value in the request does not fit its field.');
  if (isUnavailable(err)) {
    return new ApiError(
      'service_unavailable',
      'The database cannot take requests right now. Retry shortly; with the same Idempotency-Key a retried create never makes a second record.',
      null,
      { 'Retry-After': '1' },
    );
  }
  return new ApiError('internal_error', 'An internal error occurred. It has been logged; please retry.');
}
