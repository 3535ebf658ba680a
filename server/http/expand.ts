import type { Executor } from '../db/executor.ts';
import { ApiError } from '../errors.ts';

export interface ExpandContext {
  db: Executor;
  restaurantId: string;
}

interface ExpandableType {
  /** field → type of the record its id (or ids) point at */
  refs: Record<string, string>;
  /** field → type of the sub-objects it holds (e.g. an order's `items`) */
  nested: Record<string, string>;
  /** loads presented objects of this type by id; ids of another restaurant are simply not found */
  load?: (ctx: ExpandContext, ids: string[]) => Promise<Map<string, any>>;
  /** holds personal data (a staff user's email, pay): a sandbox key may not expand to it */
  personal?: boolean;
}

/** What a resource declares (a feature's `expandables`): which of its fields expand, and how to load it when something expands to it. */
export type ExpandableDef = { refs?: Record<string, string>; nested?: Record<string, string>; load?: ExpandableType['load']; personal?: boolean };

export const MAX_EXPAND_DEPTH = 4;

/**
 * The expandable types of one server, built once from its features' declarations (a type
 * declared twice, e.g. `user` by orders and staff, is merged field by field).
 */
export class Expandables {
  private readonly types = new Map<string, ExpandableType>();

  constructor(defs: Iterable<[type: string, def: ExpandableDef]>) {
    for (const [type, def] of defs) {
      const prev = this.types.get(type);
      this.types.set(type, {
        refs: { ...prev?.refs, ...def.refs },
        nested: { ...prev?.nested, ...def.nested },
        load: def.load ?? prev?.load,
        personal: def.personal ?? prev?.personal,
      });
    }
  }

  /** every type, by name (the registry test compares two servers' sets) */
  names(): string[] {
    return [...this.types.keys()].sort();
  }

  /** The first of the (validated) paths that reaches a personal type, or null. */
  personal(rootType: string, paths: string[]): string | null {
    for (const path of paths) {
      let type = rootType;
      for (const seg of path.split('.')) {
        const t = this.types.get(type);
        type = t?.refs[seg] ?? t?.nested[seg] ?? '';
        if (this.types.get(type)?.personal) return path;
      }
    }
    return null;
  }

  /** Refuses an unknown or too deep path with a 400 before any work is done. */
  validate(rootType: string, paths: string[]): string[] {
    for (const path of paths) {
      const segs = path.split('.');
      if (segs.length > MAX_EXPAND_DEPTH) {
        throw new ApiError('parameter_invalid', `expand path '${path}' is deeper than ${MAX_EXPAND_DEPTH} levels.`, 'expand');
      }
      let type = rootType;
      for (const seg of segs) {
        const t = this.types.get(type);
        const next = t?.refs[seg] ?? t?.nested[seg];
        if (!next) throw new ApiError('parameter_invalid', `'${path}' cannot be expanded on ${rootType}.`, 'expand');
        type = next;
      }
      if (this.types.get(rootType)?.nested[segs[segs.length - 1]] && segs.length === 1) {
        throw new ApiError('parameter_invalid', `'${path}' is not a reference; expand one of its fields.`, 'expand');
      }
    }
    return [...new Set(paths)];
  }

  /** Replaces ids by objects along each path, in place, one batched load per path segment. */
  async apply(ctx: ExpandContext, type: string, objects: any[], paths: string[]): Promise<void> {
    if (paths.length === 0 || objects.length === 0) return;
    const def = this.types.get(type);
    if (!def) return;
    const byHead = new Map<string, string[]>();
    for (const p of paths) {
      const [head, ...rest] = p.split('.');
      const list = byHead.get(head) ?? [];
      if (rest.length) list.push(rest.join('.'));
      byHead.set(head, list);
    }
    for (const [field, rest] of byHead) {
      const nestedType = def.nested[field];
      if (nestedType) {
        const subs = objects.flatMap((o) => (Array.isArray(o[field]) ? o[field] : o[field] ? [o[field]] : []));
        await this.apply(ctx, nestedType, subs, rest);
        continue;
      }
      const target = def.refs[field];
      const loader = this.types.get(target)?.load;
      if (!loader) continue;
      const ids = new Set<string>();
      for (const o of objects) {
        const v = o[field];
        if (typeof v === 'string') ids.add(v);
        else if (Array.isArray(v)) for (const x of v) if (typeof x === 'string') ids.add(x);
      }
      if (ids.size === 0) continue;
      const loaded = await loader(ctx, [...ids]);
      for (const o of objects) {
        const v = o[field];
        if (typeof v === 'string') o[field] = loaded.get(v) ?? v;
        else if (Array.isArray(v)) o[field] = v.map((x) => (typeof x === 'string' ? (loaded.get(x) ?? x) : x));
      }
      if (rest.length) await this.apply(ctx, target, [...loaded.values()], rest);
    }
  }
}

/** `expand[]=a&expand[]=b` and `expand=a,b` (and both at once) become one list. */
export function readExpandParam(query: Record<string, unknown>): string[] | undefined {
  if (query['expand'] === undefined && query['expand[]'] === undefined) return undefined;
  const raw = [query['expand'], query['expand[]']].flat().filter((v) => v !== undefined) as string[];
  if (raw.length === 0) return undefined;
  return raw
    .flatMap((v) => String(v).split(','))
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * A route's presented objects with the caller's `expand[]` paths filled in: the one way a list
 * or a single object of an expandable type leaves a route.
 */
type ExpandCall = { db: Executor; expand: string[]; actor(): { restaurantId: string }; services: { registry: { expandables: Expandables } } };

export async function expanded<T>(c: ExpandCall, type: string, objects: T[]): Promise<T[]> {
  await c.services.registry.expandables.apply({ db: c.db, restaurantId: c.actor().restaurantId }, type, objects, c.expand);
  return objects;
}

/** A resource's rows → its API objects with the `expand[]` the caller asked for: one per routes file. */
export const presentWith =
  <Row, Out, C extends ExpandCall = ExpandCall>(type: string, present: (row: Row, c: C) => Out) =>
  (c: C, rows: Row[]): Promise<Out[]> =>
    expanded(c, type, rows.map((r) => present(r, c)));
