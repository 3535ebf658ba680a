import type { Context, Next } from 'koa';
import { ApiError } from '../errors.ts';
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
      const apiErr =
        err instanceof ApiError
          ? err
          : new ApiError('internal_error', 'An internal error occurred. It has been logged; please retry.');
      if (!(err instanceof ApiError)) logger.error({ err, method: ctx.method, path: ctx.path }, 'request failed');
      ctx.status = apiErr.status;
      for (const [k, v] of Object.entries(apiErr.headers)) ctx.set(k, v);
      ctx.body = apiErr.toBody();
    }
  };
}
