import type { Context } from 'koa';
import getRawBody from 'raw-body';
import { refusal } from '../errors.ts';

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
    throw refusal('parameter_invalid', 'The request body could not be read.');
  }
  if (raw.trim() === '') {
    ctx.state.body = undefined;
    return;
  }
  if (!isJson(ctx)) {
    throw refusal('unsupported_media_type', 'Request bodies must be JSON, sent with Content-Type: application/json.');
  }
  try {
    ctx.state.body = JSON.parse(raw);
  } catch {
    throw refusal('invalid_json', 'The request body is not valid JSON.');
  }
  // No text field holds a NUL: PostgreSQL cannot store one (a 500 there, an oddity stored on
  // SQLite). In JSON it can only be written escaped, so most bodies skip the walk.
  // (lower case only: JSON.parse refuses `\U`)
  if (raw.includes('\\u0000') && holdsNul(ctx.state.body)) {
    throw refusal('parameter_invalid', 'Text in the request body must not contain NUL characters (\\u0000).');
  }
  ctx.state.rawBody = raw;
}

/** What nearly every client sends is compared as it is; anything else is parsed (type-is). */
const PLAIN_JSON = new Set(['application/json', 'application/json; charset=utf-8', 'application/json;charset=utf-8']);
const isJson = (ctx: Context): boolean => PLAIN_JSON.has(ctx.req.headers['content-type'] ?? '') || !!ctx.is('application/json', '+json');

function holdsNul(v: unknown): boolean {
  if (typeof v === 'string') return v.includes('\0');
  if (Array.isArray(v)) return v.some(holdsNul);
  if (v && typeof v === 'object') return Object.entries(v).some(([k, x]) => k.includes('\0') || holdsNul(x));
  return false;
}

const tooLarge = (limit: number) =>
  refusal('body_too_large', `The request body is larger than the limit of ${limit} bytes.`);
