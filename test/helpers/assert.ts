import { expect } from 'vitest';
import type { ApiResponse } from './server.ts';

/** The one error shape, with the expected status and code. */
export function expectError(res: ApiResponse, status: number, code?: string, param?: string | null) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toHaveProperty('error');
  expect(Object.keys(res.body.error).sort()).toEqual(['code', 'doc_url', 'message', 'param', 'request_id', 'type']);
  // the request is named in the body and the header alike (support finds its log line by it)
  expect(res.body.error.request_id).toMatch(/^req_/);
  if (res.headers) expect(res.headers.get('request-id')).toBe(res.body.error.request_id);
  expect(res.body.error.doc_url).toBe(`/docs#error-${res.body.error.code}`);
  expect(typeof res.body.error.message).toBe('string');
  if (code) expect(res.body.error.code).toBe(code);
  if (param !== undefined) expect(res.body.error.param).toBe(param);
  // nothing from inside the server leaks out
  expect(JSON.stringify(res.body)).not.toMatch(/\b(SELECT|INSERT INTO|DELETE FROM)\b|\bUPDATE \w+ SET\b|SQLITE_|syntax error|violates|relation \\"|\.ts:\d+|node_modules/);
}
