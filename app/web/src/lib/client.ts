/**
 * The back office's typed client, in the openapi-fetch style: a path is one of the OpenAPI
 * document's paths (`/v1/orders/{id}`), its parameters, query and body are the ones that
 * operation declares, and the answer is the type of its success response — all from `paths`
 * in api.gen.ts, so a typo in any of them fails `npm run typecheck` (client.type-test.ts
 * keeps that true). Every call goes out through `api()`, the one transport.
 */
import { api, changedFields, type Query } from './api.ts';
import type { paths } from './api.gen.ts';

type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';
type Operation<P extends keyof paths, M extends Method> = Exclude<paths[P][M], undefined>;

/** The paths that have an operation for this method. */
export type PathsWith<M extends Method> = { [P in keyof paths]: paths[P][M] extends { responses: unknown } ? P : never }[keyof paths];

type Parameters<O> = O extends { parameters: infer X } ? X : never;
type PathParams<O> = Parameters<O> extends { path: infer X } ? X : never;
type QueryOf<O> = Parameters<O> extends { query?: infer X } ? Exclude<X, undefined> : never;
type BodyOf<O> = O extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
type NoUndefined<T> = [T] extends [never] ? true : false;

// a line's index and the like are numbers in the page and strings in the path
type PathPart<O> = NoUndefined<PathParams<O>> extends true ? {} : { path: { [K in keyof PathParams<O>]: PathParams<O>[K] | number } };
type QueryPart<O> = NoUndefined<QueryOf<O>> extends true ? {} : Parameters<O> extends { query: unknown } ? { query: QueryOf<O> } : { query?: QueryOf<O> };
type BodyPart<O> = NoUndefined<BodyOf<O>> extends true ? {} : O extends { requestBody: unknown } ? { body: BodyOf<O> } : { body?: BodyOf<O> };

/** What a call passes besides its path: path parameters, query and body where the operation has them. */
export type Init<O> = PathPart<O> & QueryPart<O> & BodyPart<O> & { headers?: Record<string, string> };
type Args<O> = {} extends Init<O> ? [init?: Init<O>] : [init: Init<O>];

type JsonOf<R> = R extends { content: { 'application/json': infer J } } ? J : null;
/** The answer to a call: its success response's JSON (null when it has none). */
export type Answer<O> = O extends { responses: infer R } ? { [C in keyof R]: C extends 200 | 201 | 202 | 204 ? JsonOf<R[C]> : never }[keyof R] : never;

/**
 * An answer as sent without `expand[]`: every reference the API could expand (`table: string |
 * Table | null`) is its id alone, which is what the server sends unless asked for more.
 */
export type Unexpanded<T> = T extends readonly (infer E)[] ? Field<E>[] : T extends object ? { [K in keyof T]: Field<T[K]> } : T;
type Field<V> = string extends V ? Exclude<V, object> : Unexpanded<V>;

/** The success answer of `M path`, to name a type the page keeps (`Ok<'get', '/v1/auth/session'>`). */
export type Ok<M extends Method, P extends PathsWith<M>> = Unexpanded<Answer<Operation<P, M>>>;

/** The JSON body `M path` takes, to type a form's body before it is sent. */
export type Body<M extends Method, P extends PathsWith<M>> = BodyOf<Operation<P, M>>;

/** `/v1/orders/{id}` with `{id: 'ord_1'}` becomes `/v1/orders/ord_1`. */
function fill(path: string, params: Record<string, string | number> | undefined): string {
  return path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const v = params?.[name];
    if (v === undefined) throw new Error(`${path}: no value for {${name}}`);
    return encodeURIComponent(String(v));
  });
}

type Loose = { path?: Record<string, string | number>; query?: unknown; body?: unknown; headers?: Record<string, string> };
const call = (method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', path: string, init: Loose | undefined) =>
  // a POST without a body sends {} as the routes expect a JSON object
  api(method, fill(path, init?.path), init?.body ?? (method === 'POST' ? {} : undefined), init?.query as Query | undefined, init?.headers);

type Expanding = { query: { 'expand[]': string[] } };
/** A GET answers with its references as ids, or as objects where the call asked `expand[]`. */
export function GET<P extends PathsWith<'get'>>(path: P, init: Init<Operation<P, 'get'>> & Expanding): Promise<Answer<Operation<P, 'get'>>>;
export function GET<P extends PathsWith<'get'>>(path: P, ...init: Args<Operation<P, 'get'>>): Promise<Unexpanded<Answer<Operation<P, 'get'>>>>;
export function GET(path: string, init?: Loose) {
  return call('GET', path, init);
}
export const POST = <P extends PathsWith<'post'>>(path: P, ...[init]: Args<Operation<P, 'post'>>): Promise<Unexpanded<Answer<Operation<P, 'post'>>>> => call('POST', path, init as Loose);
export const PATCH = <P extends PathsWith<'patch'>>(path: P, ...[init]: Args<Operation<P, 'patch'>>): Promise<Unexpanded<Answer<Operation<P, 'patch'>>>> => call('PATCH', path, init as Loose);
export const PUT = <P extends PathsWith<'put'>>(path: P, ...[init]: Args<Operation<P, 'put'>>): Promise<Unexpanded<Answer<Operation<P, 'put'>>>> => call('PUT', path, init as Loose);
export const DELETE = <P extends PathsWith<'delete'>>(path: P, ...[init]: Args<Operation<P, 'delete'>>): Promise<Unexpanded<Answer<Operation<P, 'delete'>>>> => call('DELETE', path, init as Loose);

/** The lists: GET paths whose answer is a page of `data` with a cursor. */
type ListPath = { [P in PathsWith<'get'>]: Answer<Operation<P, 'get'>> extends { data: { id: string }[]; has_more: boolean } ? P : never }[PathsWith<'get'>];
type Row<P extends ListPath> = Answer<Operation<P, 'get'>> extends { data: (infer R)[] } ? Unexpanded<R> : never;

/** Every page of a v1 list (menus and staff lists are small; capped to keep a bad day bounded). */
export async function getAll<P extends ListPath>(path: P, ...[init, max = 2000]: [init?: Init<Operation<P, 'get'>>, max?: number]): Promise<Row<P>[]> {
  const out: Row<P>[] = [];
  const loose = init as Loose | undefined;
  let after: string | undefined;
  for (;;) {
    const query = { limit: 100, ...(loose?.query as object), starting_after: after };
    const page = (await call('GET', path, { ...loose, query })) as { data: Row<P>[]; has_more: boolean; next_cursor?: string | null };
    out.push(...page.data);
    if (!page.has_more || page.data.length === 0 || out.length >= max) return out;
    after = page.next_cursor ?? (page.data[page.data.length - 1] as { id: string }).id;
  }
}

/**
 * PATCHes only the fields that changed since the form opened (see `changedFields`); nothing at
 * all when nothing did.
 */
export function patchChanged<P extends PathsWith<'patch'>>(
  path: P,
  init: Omit<Init<Operation<P, 'patch'>>, 'body'>,
  body: BodyOf<Operation<P, 'patch'>>,
  opened: BodyOf<Operation<P, 'patch'>>,
): Promise<Unexpanded<Answer<Operation<P, 'patch'>>> | null> {
  const changed = changedFields(body as Record<string, unknown>, opened as Record<string, unknown>);
  return Object.keys(changed).length ? call('PATCH', path, { ...(init as Loose), body: changed }) : Promise.resolve(null);
}
