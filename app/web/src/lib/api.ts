import { baseUrl, cloudHeaders, home, hubAnswered, hubSilent, type HomeName } from './homes.ts';

/**
 * The back office is a client of the public API like any other: the same routes, the same
 * error shape. It signs its requests with the staff session cookie and, on anything that
 * changes state, the session's CSRF token (read from its cookie) in X-CSRF-Token. While the
 * hub PC is not answering, a staff device works through the linked cloud (lib/homes.ts): the
 * same calls go there, signed by header (a cookie of the hub does not cross).
 */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly param: string | null,
    /** captcha_required: where the bot check to solve is */
    readonly challengeUrl: string | null = null,
  ) {
    super(message);
  }
}

let apiKey: string | null = null;
/** A paired screen calls with its device's widget key instead of the staff session. */
export const setApiKey = (key: string | null) => {
  apiKey = key;
};

const listeners = new Set<(f: ApiFailure) => void>();
/** Called on every 401: the session ended (expired, revoked, signed out elsewhere). */
export const onUnauthorized = (fn: (f: ApiFailure) => void) => listeners.add(fn);

export function csrfToken(): string {
  const m = /(?:^|;\s*)comanda_csrf=([^;]*)/.exec(document.cookie);
  return m ? decodeURIComponent(m[1]) : '';
}

export type Query = Record<string, string | number | boolean | undefined | null | string[]>;

export function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null || v === '') continue;
    if (Array.isArray(v)) for (const x of v) p.append(k, x);
    else p.set(k, String(v));
  }
  const s = p.toString();
  return s ? `${path}?${s}` : path;
}

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export function api<T = any>(method: Method, path: string, body?: unknown, query?: Query, extraHeaders?: Record<string, string>): Promise<T> {
  return apiAt<T>(home.value, method, path, body, query, extraHeaders);
}

/**
 * A call to one home whichever the device works on: the service queue settles there a write
 * that may have reached it (docs/contributors/two-homes.md). A 401 from the other home is that
 * home's answer only: it signs nobody out here.
 */
export async function apiAt<T = any>(at: HomeName, method: Method, path: string, body?: unknown, query?: Query, extraHeaders?: Record<string, string>): Promise<T> {
  const own = at === home.value;
  const send = () => {
    const headers: Record<string, string> = { Accept: 'application/json', ...extraHeaders };
    const onCloud = cloudHeaders(own ? home.value : at);
    if (onCloud) Object.assign(headers, onCloud);
    else if (apiKey) headers['X-API-Key'] = apiKey;
    else if (method !== 'GET') headers['X-CSRF-Token'] = csrfToken();
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const init: RequestInit = { method, headers, credentials: onCloud ? 'omit' : 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) };
    return fetch(baseUrl(own ? home.value : at) + withQuery(path, query), init);
  };
  let res: Response;
  const from = own ? home.value : at;
  try {
    res = await send();
    if (from === 'hub') hubAnswered();
  } catch {
    if (from === 'hub') hubSilent();
    // moved meanwhile: a read is asked of the new home. A write is not: the hub may have done
    // it before it fell silent, and Idempotency-Keys are each node's own, so the cloud could
    // not tell; the person (or the service page's queue) sends it again, to the cloud
    const retry = own && home.value !== from && method === 'GET';
    try {
      if (!retry) throw new Error('no retry');
      res = await send();
    } catch {
      throw new ApiFailure(0, 'network', 'The hub cannot be reached. Check the network.', null);
    }
  }
  const text = await res.text();
  const json = text ? JSON.parse(text) : null;
  if (!res.ok) {
    const e = json?.error ?? {};
    const failure = new ApiFailure(res.status, e.code ?? 'unknown', e.message ?? res.statusText, e.param ?? null, typeof e.challenge_url === 'string' ? e.challenge_url : null);
    // a wrong PIN or an untrusted tablet is the PIN pad's to say, not a reason to leave it
    if (res.status === 401 && own && !path.startsWith('/v1/auth/login') && !path.startsWith('/v1/auth/setup') && !path.startsWith('/v1/auth/pin')) for (const l of listeners) l(failure);
    throw failure;
  }
  return json as T;
}

/**
 * The fields of an edit form's body that differ from the body the form would have sent as it
 * opened. Hub and cloud merge a record field by field, by when each field was last set: a save
 * that sends every field claims them all, and undoes what was changed on the other side while
 * the two were apart. So an edit sends only what the person changed.
 */
export function changedFields<T extends Record<string, unknown>>(body: T, opened: T): Partial<T> {
  const out: Partial<T> = {};
  for (const k of Object.keys(body) as (keyof T)[]) if (stable(body[k]) !== stable(opened[k])) out[k] = body[k];
  return out;
}

const stable = (v: unknown): string =>
  JSON.stringify(v, (_k, x) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.keys(x).sort().map((k) => [k, x[k]])) : x)) ?? 'undefined';
