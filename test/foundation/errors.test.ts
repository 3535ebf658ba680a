import { describe, expect, it } from 'vitest';
import { ApiError } from '../../server/errors.ts';
import { toApiError } from '../../server/http/error-middleware.ts';

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

  it('gives each status its error type', () => {
    expect(new ApiError('api_key_missing', 'x').type).toBe('authentication_error');
    expect(new ApiError('insufficient_scope', 'x').type).toBe('permission_error');
    expect(new ApiError('resource_missing', 'x').type).toBe('not_found_error');
    expect(new ApiError('rate_limited', 'x').type).toBe('rate_limit_error');
    expect(new ApiError('idempotency_key_in_use', 'x').type).toBe('idempotency_error');
  });
});
