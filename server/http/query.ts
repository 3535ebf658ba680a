import { z } from 'zod';
import { isRealDate } from '../model/dates.ts';

/**
 * Query-string types. Values arrive as strings (or arrays when repeated); these coerce
 * them strictly, so "10abc", "1.5" for an integer or a repeated scalar are refused.
 */
export const q = {
  int: (opts: { min?: number; max?: number } = {}) =>
    documentedAs(
      z
        .string()
        .regex(/^-?\d+$/, 'must be an integer')
        .transform(Number)
        .pipe(z.number().int().min(opts.min ?? Number.MIN_SAFE_INTEGER).max(opts.max ?? Number.MAX_SAFE_INTEGER)),
      {
        type: 'integer',
        ...(opts.min !== undefined && { minimum: opts.min }),
        ...(opts.max !== undefined && { maximum: opts.max }),
      },
    ),
  /** a decimal number ("12.5"), no exponent */
  number: (opts: { min?: number; max?: number } = {}) =>
    documentedAs(
      z
        .string()
        .regex(/^-?\d{1,15}(\.\d{1,6})?$/, 'must be a number')
        .transform(Number)
        .pipe(z.number().min(opts.min ?? Number.MIN_SAFE_INTEGER).max(opts.max ?? Number.MAX_SAFE_INTEGER)),
      {
        type: 'number',
        ...(opts.min !== undefined && { minimum: opts.min }),
        ...(opts.max !== undefined && { maximum: opts.max }),
      },
    ),
  bool: () =>
    documentedAs(z.enum(['true', 'false'], { message: 'must be true or false' }).transform((v) => v === 'true'), { type: 'boolean' }),
  string: (max = 200) => z.string().min(1).max(max),
  enum: <T extends readonly [string, ...string[]]>(values: T) => z.enum(values),
  date: () => z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD').refine(isRealDate, 'is not a real date'),
  time: () => z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time HH:MM'),
};

/**
 * A query value arrives as text, but the document shows what it means (`integer` with its
 * bounds, `boolean`), as a typed client sends it: the OpenAPI generator (http/openapi.ts)
 * puts this JSON Schema in place of the string schema that parses it.
 */
export const queryJsonSchemas = new WeakMap<z.ZodType, Record<string, unknown>>();

function documentedAs<T extends z.ZodType>(schema: T, json: Record<string, unknown>): T {
  queryJsonSchemas.set(schema, json);
  return schema;
}

/** limit / starting_after / ending_before, shared by every v1 list route. */
export function listParams(maxLimit = 100) {
  return {
    limit: q.int({ min: 1, max: maxLimit }).optional(),
    starting_after: z.string().min(1).max(500).optional(),
    ending_before: z.string().min(1).max(500).optional(),
  };
}
