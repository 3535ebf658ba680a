import { randomFillSync } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Logger } from '../logger.ts';

/**
 * Every answer names its request (`Request-Id`, and `request_id` in an error body), and the
 * request's log line carries the same id, so a venue can quote it to support and support can
 * find the line. Made here, never taken from the request: a client cannot plant one.
 */
export const newRequestId = () => `req_${random12()}`;

// Every request takes an id: 12 random bytes cut from a pool filled 4 KB at a time, as
// crypto.randomUUID does, rather than a call into the system's generator per request; read
// as text in place (a Buffer made per request for them cost as much as the rest of this).
const pool = Buffer.alloc(12 * 341);
let used = pool.length;
function random12(): string {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  used += 12;
  return pool.toString('base64url', used - 12, used);
}

export function requestIdOf(ctx: Context): string {
  return (ctx.state.requestId ??= newRequestId());
}

/**
 * Sets the header and writes the request's one log line: a refusal (4xx) at info, anything
 * else at debug (LOG_LEVEL=debug). A 5xx is logged by the error middleware, with its error.
 */
export function requestIdMiddleware(logger: Logger) {
  return async (ctx: Context, next: Next) => {
    const id = requestIdOf(ctx);
    ctx.set('Request-Id', id);
    const started = Date.now();
    try {
      await next();
    } finally {
      const status = ctx.status;
      const level = status >= 500 ? null : status >= 400 ? 'info' : 'debug';
      if (level && logger.isLevelEnabled(level)) {
        const code = status >= 400 ? (ctx.body as { error?: { code?: string } } | undefined)?.error?.code : undefined;
        logger[level]({ request_id: id, method: ctx.method, path: ctx.path, status, ms: Date.now() - started, ...(code && { code }) }, 'request');
      }
    }
  };
}
