import type { Context } from 'koa';
import getRawBody from 'raw-body';
import { ApiError } from '../errors.ts';

/**
 * Reads a JSON body into ctx.state.body. A body of another content type is refused (415)
 * rather than silently ignored; an oversized one is refused before it is read whole (413).
 * Routes call it (after their preflight), so a request nobody answers is never read.
 */
export async function readJsonBody(ctx: Context, limitBytes: number): Promise<void> {
  if (ctx.method === 'GET' || ctx.method === 'HEAD' || ctx.method === 'DELETE' || ctx.method === 'OPTIONS') {
    return;
  }
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > limitBytes) throw tooLarge(limitBytes);
  let raw: string;
  try {
    raw = await getRawBody(ctx.req, { limit: limitBytes, encoding: 'utf8' });
  } catch (err: any) {
    if (err?.type === 'entity.too.large') throw tooLarge(limitBytes);
    throw new ApiError('parameter_invalid', 'The request body could not be read.');
  }
  if (raw.trim() === '') {
    ctx.state.body = undefined;
    return;
  }
  if (!ctx.is('application/json', '+json')) {
    throw new ApiError('unsupported_media_type', 'Request bodies must be JSON, sent with Content-Type: application/json.');
  }
  try {
    ctx.state.body = JSON.parse(raw);
  } catch {
    throw new ApiError('invalid_json', 'The request body is not valid JSON.');
  }
  ctx.state.rawBody = raw;
}

const tooLarge = (limit: number) =>
  new ApiError('body_too_large', `The request body is larger than the limit of ${limit} bytes.`);
