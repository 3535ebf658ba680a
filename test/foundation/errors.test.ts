import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError, refusal } from '../../server/errors.ts';
import { toApiError } from '../../server/http/error-middleware.ts';
import { zodToApiError } from '../../server/http/zod-errors.ts';

describe('error mapping', () => {
  it('keeps an ApiError as it is', () => {
    const e = new ApiError('unknown_station', 'nope', 'station');
    expect(toApiError(e)).toBe(e);
    expect(e.status).toBe(400);
    expect(e.toBody()).toEqual({ error: { type: 'invalid_request_error', code: 'unknown_station', message: 'nope', param: 'station' } });
  });

  it('turns unique violations of either database into a 409 conflict', () => {
    for (const code of ['23505', 'SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY']) {
      const mapped = toApiError(Object.assign(new Error('duplicate key value violates unique constraint "x"'), { code }));
      expect(mapped.status).toBe(409);
      expect(mapped.code).toBe('resource_conflict');
      expect(mapped.message).not.toMatch(/unique constraint|duplicate key/);
    }
  });

  it('hides anything else behind a 500 without SQL or stack', () => {
    const mapped = toApiError(new Error('SQLITE_ERROR: near "SELEC": syntax error in SELECT * FROM orders'));
    expect(mapped.status).toBe(500);
    expect(JSON.stringify(mapped.toBody())).not.toMatch(/SELEC|orders|syntax/);
  });

  it("answers a refusal of input the same, made without the stack (never logged; ~10 µs a refused request), and leaves other errors theirs", () => {
    const refused = refusal('parameter_invalid', 'Invalid items[0].quantity: too small', 'items[0].quantity');
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused.toBody()).toEqual(new ApiError('parameter_invalid', 'Invalid items[0].quantity: too small', 'items[0].quantity').toBody());
    const parsed = z.object({ quantity: z.number().min(1) }).safeParse({ quantity: 0 });
    const fromZod = zodToApiError(parsed.error!, { quantity: 0 }, 'body');
    for (const e of [refused, fromZod]) expect(e.stack).not.toMatch(/\n\s+at /);
    expect(new ApiError('internal_error', 'x').stack).toMatch(/\n\s+at /);
    expect(new Error('x').stack).toMatch(/\n\s+at /);
  });

  it('gives each status its error type', () => {
    expect(new ApiError('api_key_missing', 'x').type).toBe('authentication_error');
    expect(new ApiError('insufficient_scope', 'x').type).toBe('permission_error');
    expect(new ApiError('resource_missing', 'x').type).toBe('not_found_error');
    expect(new ApiError('rate_limited', 'x').type).toBe('rate_limit_error');
    expect(new ApiError('idempotency_key_in_use', 'x').type).toBe('idempotency_error');
  });
});

describe('a database that cannot take the request now', () => {
  it('is a 503 with Retry-After for busy, full, unreachable or restarting databases of either dialect', () => {
    const transient = [
      { code: 'SQLITE_BUSY' },
      { code: 'SQLITE_BUSY_SNAPSHOT' },
      { code: 'SQLITE_LOCKED' },
      { code: 'SQLITE_FULL' },
      { code: 'SQLITE_IOERR_WRITE' },
      { code: '08006' }, // connection failure
      { code: '53300' }, // too many connections
      { code: '53100' }, // disk full
      { code: '57P01' }, // admin shutdown
      { code: '57P03' }, // cannot connect now
      { code: '40001' }, // serialization failure after the retries
      { code: 'ECONNREFUSED' },
      { code: 'ECONNRESET' },
      { message: 'Connection terminated unexpectedly' },
      { message: 'timeout exceeded when trying to connect' },
    ];
    for (const props of transient) {
      const mapped = toApiError(Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432 at SELECT * FROM orders'), props));
      expect(mapped.status, JSON.stringify(props)).toBe(503);
      expect(mapped.code).toBe('service_unavailable');
      expect(mapped.headers['Retry-After']).toBe('1');
      expect(JSON.stringify(mapped.toBody())).not.toMatch(/10\.0\.0\.5|SELECT|orders/);
    }
  });

  it('turns a value PostgreSQL refuses as data (class 22) into a 400', () => {
    for (const code of ['22P02', '22003', '22021', '22007']) {
      const mapped = toApiError(Object.assign(new Error('invalid input syntax for type bigint: "abc"'), { code }));
      expect(mapped.status, code).toBe(400);
      expect(mapped.code).toBe('parameter_invalid');
      expect(mapped.message).not.toMatch(/bigint|abc/);
    }
  });

  it('leaves real faults a 500: a broken query, a foreign key, a missing table', () => {
    for (const code of ['SQLITE_ERROR', 'SQLITE_CONSTRAINT_FOREIGNKEY', '23503', '42P01', '42601', 'SQLITE_READONLY']) {
      expect(toApiError(Object.assign(new Error('x'), { code })).status, code).toBe(500);
    }
  });
});
