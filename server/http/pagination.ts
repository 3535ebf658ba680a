import { type SelectQueryBuilder, sql } from 'kysely';
import { ApiError } from '../errors.ts';

export interface SortKey {
  /** column as written in SQL (may be qualified, e.g. `orders.created`) */
  column: string;
  /** property of the result row holding that column's value */
  field: string;
  direction: 'asc' | 'desc';
}

export interface ListEnvelope<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
  previous_cursor: string | null;
  url: string;
}

export interface PageRequest {
  limit?: number;
  starting_after?: string;
  ending_before?: string;
}

/** The order every v1 list uses unless it says otherwise: newest first, ids break ties. */
export const NEWEST_FIRST = (table: string): SortKey[] => [
  { column: `${table}.created`, field: 'created', direction: 'desc' },
  { column: `${table}.id`, field: 'id', direction: 'desc' },
];

// Cursors are opaque to clients: base64url of the boundary row's sort values, tagged with
// the list they belong to so a cursor of one list is refused by another.
function encodeCursor(tag: string, keys: SortKey[], row: any): string {
  return Buffer.from(JSON.stringify([tag, ...keys.map((k) => row[k.field])])).toString('base64url');
}

function decodeCursor(tag: string, keys: SortKey[], cursor: string, param: string): unknown[] {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(parsed) &&
      parsed.length === keys.length + 1 &&
      parsed[0] === tag &&
      // sort values are whole numbers (times, money) or short texts (ids, dates) as we wrote them
      parsed.slice(1).every((v) => (typeof v === 'string' && v.length <= 200 && !v.includes('\0')) || Number.isSafeInteger(v))
    ) {
      return parsed.slice(1);
    }
  } catch {
    // fall through
  }
  throw new ApiError('invalid_cursor', `Invalid cursor in ${param}.`, param);
}

/**
 * Keyset pagination over any query: stable when sort values tie (the last key must be
 * unique), and a page never shifts when rows are added at the top.
 */
export async function paginate<O>(
  qb: SelectQueryBuilder<any, any, O>,
  opts: PageRequest & { keys: SortKey[]; url: string; tag?: string; defaultLimit?: number },
): Promise<ListEnvelope<O>> {
  const page = pageQuery(qb, opts);
  return page.envelope((await page.query.execute()) as O[]);
}

/**
 * `paginate` in two steps, for a caller that runs the query its own way: the query of the
 * page (one row more than the limit, to know whether there are more), and the envelope
 * made from the rows it returned.
 */
export function pageQuery<O>(
  qb: SelectQueryBuilder<any, any, O>,
  opts: PageRequest & { keys: SortKey[]; url: string; tag?: string; defaultLimit?: number },
): { query: SelectQueryBuilder<any, any, O>; envelope(rows: O[]): ListEnvelope<O> } {
  const { keys, url } = opts;
  const tag = opts.tag ?? url;
  const limit = opts.limit ?? opts.defaultLimit ?? 10;
  if (opts.starting_after && opts.ending_before) {
    throw new ApiError('parameter_invalid', 'Pass starting_after or ending_before, not both.', 'ending_before');
  }
  const backwards = Boolean(opts.ending_before);
  const cursor = opts.starting_after ?? opts.ending_before;
  let q = qb as SelectQueryBuilder<any, any, any>;
  if (cursor) {
    const values = decodeCursor(tag, keys, cursor, backwards ? 'ending_before' : 'starting_after');
    q = q.where((eb) =>
      eb.or(
        keys.map((key, i) => {
          const forwardOp = key.direction === 'asc' ? '>' : '<';
          const op = backwards ? (forwardOp === '>' ? '<' : '>') : forwardOp;
          const eqs = keys.slice(0, i).map((k, j) => eb(sql.ref(k.column), '=', values[j]));
          return eb.and([...eqs, eb(sql.ref(key.column), op, values[i])]);
        }),
      ),
    );
  }
  for (const key of keys) {
    const dir = backwards ? (key.direction === 'asc' ? 'desc' : 'asc') : key.direction;
    q = q.orderBy(sql.ref(key.column), dir);
  }
  return {
    query: q.limit(limit + 1),
    envelope(rows) {
      const more = rows.length > limit;
      const data = more ? rows.slice(0, limit) : rows;
      if (backwards) data.reverse();
      const first = data[0];
      const last = data[data.length - 1];
      const cursorOf = (row: O | undefined) => (row === undefined ? null : encodeCursor(tag, keys, row));
      return {
        object: 'list',
        data,
        has_more: more,
        next_cursor: backwards ? cursorOf(last) : more ? cursorOf(last) : null,
        previous_cursor: backwards ? (more ? cursorOf(first) : null) : cursor ? cursorOf(first) : null,
        url,
      };
    },
  };
}

/** Presents the rows of a page, keeping the envelope. */
export async function mapPage<I, O>(page: ListEnvelope<I>, fn: (rows: I[]) => O[] | Promise<O[]>): Promise<ListEnvelope<O>> {
  return { ...page, data: await fn(page.data) };
}
