import { ApiError } from '../errors.ts';

/**
 * `?fields=a,b`: the one parser of a field selection. Absent: `defaults`. Refuses an empty list
 * and any name not in `selectable` (400, nothing read), and a selectable name outside `allowed`
 * (403: a paired screen asking for a guest's phone, http/screen-keys.ts). Names are kept once,
 * in the order asked.
 */
export function parseFieldList<N extends string>(
  raw: string | undefined,
  selectable: readonly N[],
  defaults: readonly N[],
  allowed: readonly N[] = selectable,
): N[] {
  if (raw === undefined) return defaults.filter((f) => allowed.includes(f));
  const names = [...new Set(raw.split(',').map((s) => s.trim()).filter(Boolean))];
  if (names.length === 0) throw new ApiError('parameter_invalid', 'fields must name at least one field.', 'fields');
  // a plain list lookup: `in` on an object would also take Object.prototype's names (constructor, __proto__)
  const unknown = names.find((n) => !(selectable as readonly string[]).includes(n));
  if (unknown) throw new ApiError('parameter_invalid', `Unknown field '${unknown}'. Selectable fields: ${selectable.join(', ')}.`, 'fields');
  const barred = names.find((n) => !(allowed as readonly string[]).includes(n));
  if (barred) throw new ApiError('insufficient_scope', `This key cannot read '${barred}': a paired screen sees no guest contact details.`, 'fields');
  return names as N[];
}
