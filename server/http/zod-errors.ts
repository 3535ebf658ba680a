import type { z } from 'zod';
import { refusal, type ApiError } from '../errors.ts';

function formatPath(prefix: string | null, path: PropertyKey[]): string | null {
  let out = prefix ?? '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += out ? `.${String(seg)}` : String(seg);
  }
  return out || null;
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let v: any = input;
  for (const seg of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = v[seg as any];
  }
  return v;
}

/** Turns the first zod issue into the one error shape, naming the offending parameter. */
export function zodToApiError(error: z.ZodError, input: unknown, where: 'body' | 'query' | 'path'): ApiError {
  const issue = error.issues[0];
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0];
    const param = formatPath(null, [...issue.path, key]);
    return refusal('parameter_unknown', `Received unknown ${where} parameter: ${param}`, param);
  }
  const param = formatPath(null, issue.path);
  if (where === 'body' && (input === undefined || input === null || typeof input !== 'object' || Array.isArray(input)) && issue.path.length === 0) {
    return refusal('parameter_invalid', 'The request body must be a JSON object.', null);
  }
  if (issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined) {
    return refusal('parameter_missing', `Missing required param: ${param}.`, param);
  }
  return refusal('parameter_invalid', `Invalid ${param ?? where}: ${issue.message}`, param);
}
