import { expect } from 'vitest';
import type { ApiResponse } from './server.ts';

/** The one error shape, with the expected status and code. */
export function expectError(res: ApiResponse, status: number, code?: string, param?: string | null) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toHaveProperty('error');
  expect(Object.keys(res.body.error).sort()).toEqual(['code', 'message', 'param', 'type']);
  expect(typeof res.body.error.message).toBe('string');
  if (code) expect(res.body.error.code).toBe(code);
  if (param !== undefined) expect(res.body.error.param).toBe(param);
  // nothing from inside the server leaks out
  expect(JSON.stringify(res.body)).not.toMatch(/\b(SELECT|INSERT INTO|DELETE FROM)\b|\bUPDATE \w+ SET\b|SQLITE_|syntax error|violates|relation \\"|\.ts:\d+|node_modules/);
}
