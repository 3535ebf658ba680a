import { z } from 'zod';

/**
 * The named response shapes of the API. Each presenter defines its output here as a zod
 * schema; its TypeScript type is inferred from it and the OpenAPI document shows it as a
 * component (`#/components/schemas/<id>`), so the type and the description cannot drift.
 */
export const namedSchemas = new Map<string, z.ZodType>();

export function named<T extends z.ZodType>(id: string, schema: T): T {
  if (namedSchemas.has(id) && namedSchemas.get(id) !== schema) throw new Error(`two response schemas named ${id}`);
  namedSchemas.set(id, schema);
  return schema;
}

/** Unix seconds */
export const unix = () => z.number().int();
export const id = () => z.string();

/** A reference: the id, or with `expand` the object itself. */
export const ref = <T extends z.ZodType>(target: T) => z.union([z.string(), target]);

/** The cursor list of every v1 list route (http/pagination.ts). */
export const listOf = <T extends z.ZodType>(item: T) =>
  z.object({
    object: z.literal('list'),
    data: z.array(item),
    has_more: z.boolean(),
    next_cursor: z.string().nullable(),
    previous_cursor: z.string().nullable(),
    url: z.string(),
  });

/** The answer of a true delete. */
export const deletedOf = <O extends string>(object: O) => z.object({ id: z.string(), object: z.literal(object), deleted: z.literal(true) });

/** `{de: {name, description}}`: a menu text per language */
export const Translations = named(
  'Translations',
  z.record(z.string(), z.object({ name: z.string().optional(), description: z.string().optional() })),
);
