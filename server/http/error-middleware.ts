import type { Context, Next } from 'koa';
import { ApiError, isUniqueViolation } from '../errors.ts';
import type { Logger } from '../logger.ts';

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
      if (apiErr.status >= 500) logger.error({ err, method: ctx.method, path: ctx.path }, 'request failed');
      ctx.status = apiErr.status;
      for (const [k, v] of Object.entries(apiErr.headers)) ctx.set(k, v);
      ctx.body = apiErr.toBody();
    }
  };
}

/**
 * A unique-constraint violation means two writers raced for the same thing (a slug, a key,
 * a number): that is the client's conflict, not a server fault. Anything else unexpected
 * is a 500 whose message says nothing about the inside (no SQL, no stack).
 */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (isUniqueViolation(err)) {
    return new ApiError('resource_conflict', 'The request conflicts with a record that was just written. Retry it.');
  }
  return new ApiError('internal_error', 'An internal error occurred. It has been logged; please retry.');
}
