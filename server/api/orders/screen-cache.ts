import type { Services } from '../../services.ts';

/**
 * Live screens (kitchen, expo, dispatch) poll the same views many times a second. Every
 * replicated write appends to the change log in its own transaction, so the log's last
 * position is an exact version of everything a view reads: an answer computed at position
 * p is served as is until the log moves past p, by this process or any other sharing the
 * database. Answers are kept serialised, at most MAX_ENTRIES of them per server.
 */
const MAX_ENTRIES = 256;

interface Entry {
  seq: number;
  json: string;
}

const caches = new WeakMap<Services, Map<string, Entry>>();

async function lastSeq(services: Services): Promise<number> {
  const row = await services.db.selectFrom('change_log').select((eb) => eb.fn.max('seq').as('seq')).executeTakeFirst();
  return Number(row?.seq ?? 0);
}

/** The JSON text of `compute()`, reused while nothing has been written since it was made. */
export async function cachedView(services: Services, key: string, compute: () => Promise<unknown>): Promise<string> {
  let cache = caches.get(services);
  if (!cache) caches.set(services, (cache = new Map()));
  // Read before computing: if a write lands in between, the entry is merely older than its
  // content and the next request recomputes it. It can never be newer than it claims.
  const seq = await lastSeq(services);
  const hit = cache.get(key);
  if (hit && hit.seq === seq) return hit.json;
  const json = JSON.stringify(await compute());
  cache.delete(key);
  cache.set(key, { seq, json });
  if (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  return json;
}
