import type { Context } from 'koa';

/**
 * The key of a request: `X-API-Key` (the documented header), else `Authorization: Bearer …`,
 * which most HTTP clients and generators send for a bearer token.
 */
export function keyOf(ctx: Context): string {
  const key = ctx.get('x-api-key');
  if (key) return key;
  const m = /^Bearer +(\S+) *$/i.exec(ctx.get('authorization'));
  return m ? m[1] : '';
}
