import { PassThrough, type Transform } from 'node:stream';
import { constants, createGzip, gunzipSync, gzipSync } from 'node:zlib';
import type { Context } from 'koa';
import getRawBody from 'raw-body';
import type { z } from 'zod';
import { ApiError } from '../server/errors.ts';
import { zodToApiError } from '../server/http/zod-errors.ts';
import { MAX_BATCH_BYTES, MAX_COMPRESSED_BYTES, PROTOCOL_VERSION } from './protocol.ts';

/**
 * Reads a sync request: JSON, gzip-compressed or not, bounded before and after inflating,
 * validated by its schema. Anything off is a 4xx before a row is touched.
 */
export async function readSyncBody<T extends z.ZodType>(ctx: Context, schema: T): Promise<z.output<T>> {
  const gz = /gzip/i.test(ctx.get('content-encoding'));
  const limit = gz ? MAX_COMPRESSED_BYTES : MAX_BATCH_BYTES;
  if (Number(ctx.get('content-length') || 0) > limit) throw tooLarge();
  let raw: Buffer;
  try {
    raw = await getRawBody(ctx.req, { limit });
  } catch (err: any) {
    if (err?.type === 'entity.too.large') throw tooLarge();
    throw new ApiError('sync_batch_invalid', 'The batch could not be read.');
  }
  if (gz) {
    try {
      raw = gunzipSync(raw, { maxOutputLength: MAX_BATCH_BYTES });
    } catch (err: any) {
      if (err?.code === 'ERR_BUFFER_TOO_LARGE' || /larger than/i.test(String(err?.message))) throw tooLarge();
      throw new ApiError('sync_batch_invalid', 'The batch is not valid gzip.');
    }
  }
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new ApiError('invalid_json', 'The batch is not valid JSON.');
  }
  if (body && typeof body === 'object' && 'protocol' in body && (body as { protocol: unknown }).protocol !== PROTOCOL_VERSION) {
    throw protocolMismatch((body as { protocol: unknown }).protocol);
  }
  const r = schema.safeParse(body);
  if (!r.success) throw zodToApiError(r.error, body, 'body');
  return r.data;
}

export const protocolMismatch = (theirs: unknown) =>
  new ApiError(
    'sync_protocol_mismatch',
    `This cloud speaks sync protocol ${PROTOCOL_VERSION}; the hub sent ${JSON.stringify(theirs)}. Update the older of the two.`,
    'protocol',
  );

const tooLarge = () =>
  new ApiError('body_too_large', `A sync batch is at most ${MAX_BATCH_BYTES} bytes (${MAX_COMPRESSED_BYTES} compressed).`);

/** Answers JSON, gzip-compressed when the client takes it and it is worth it. */
export function sendJson(ctx: Context, value: unknown): void {
  const text = Buffer.from(JSON.stringify(value));
  ctx.type = 'application/json';
  if (text.length > 1024 && /gzip/i.test(ctx.get('accept-encoding'))) {
    ctx.set('Content-Encoding', 'gzip');
    ctx.body = gzipSync(text, { level: 1 });
  } else ctx.body = text;
}

/** Marks an answer whose HTTP status went out before the work ended: the body carries the real one. */
export const STREAMED_HEADER = 'X-Sync-Streamed';

/**
 * Answers JSON that takes a while (a long poll, a push the cloud applies): the headers go out
 * at once, then a whitespace byte every `heartbeatMs` until `answer` settles, then the JSON
 * (whitespace before it is still JSON). A client that hears nothing for a few heartbeats knows
 * the line is dead. The status is 200 before the outcome is known, so a refusal is written as
 * its usual error body with `"status"` beside it (the hub reads it as that status).
 * Compressed as sendJson does, each heartbeat flushed through the gzip stream, unless the
 * answer is known to be small (`small`: a push's answer is a few hundred bytes, and a gzip
 * stream per push, flushed at every heartbeat, cost the cloud more than the bytes it saved).
 */
export function streamJson(ctx: Context, heartbeatMs: number, answer: () => Promise<unknown>, onError: (err: unknown) => void = () => {}, opts: { small?: boolean } = {}): void {
  const gz = !opts.small && /gzip/i.test(ctx.get('accept-encoding'));
  const out: Transform = gz ? createGzip({ level: 1 }) : new PassThrough();
  ctx.status = 200;
  ctx.type = 'application/json';
  if (gz) ctx.set('Content-Encoding', 'gzip');
  // a reverse proxy in front of the cloud must pass the heartbeats on, not hold them
  ctx.set('X-Accel-Buffering', 'no');
  ctx.set('Cache-Control', 'no-store');
  ctx.set(STREAMED_HEADER, '1');
  ctx.body = out;
  const beat = () => {
    if (out.writableEnded || out.destroyed) return;
    out.write(' ');
    if (gz) (out as ReturnType<typeof createGzip>).flush(constants.Z_SYNC_FLUSH);
  };
  beat();
  const timer = setInterval(beat, heartbeatMs);
  answer().then(
    (value) => {
      clearInterval(timer);
      if (!out.destroyed) out.end(JSON.stringify(value));
    },
    (err) => {
      clearInterval(timer);
      if (out.destroyed) return;
      if (err instanceof ApiError) return void out.end(JSON.stringify({ ...err.toBody(), status: err.status }));
      onError(err);
      out.end(JSON.stringify({ error: { type: 'api_error', code: 'internal_error', message: 'The cloud could not finish this request.', param: null }, status: 500 }));
    },
  );
}
