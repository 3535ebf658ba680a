import type { Kysely } from 'kysely';
import type { Executor } from '../../db/records.ts';

/**
 * Restaurants whose webhooks another node sends: a hub linked to a cloud hands them over
 * (sync/), so each event goes out once, from the cloud. Kept per database, like the clocks.
 */
const handedOff = new WeakMap<object, Set<string>>();

const keyOf = (db: Executor) => (db as Kysely<any>).getExecutor().adapter;

export function setWebhooksHandedOff(db: Executor, restaurantId: string, off: boolean): void {
  const key = keyOf(db);
  let set = handedOff.get(key);
  if (!set) handedOff.set(key, (set = new Set()));
  if (off) set.add(restaurantId);
  else set.delete(restaurantId);
}

export function webhooksHandedOff(db: Executor, restaurantId: string): boolean {
  return handedOff.get(keyOf(db))?.has(restaurantId) ?? false;
}

/** Databases that are a cloud's: they send the endpoints marked `cloud` of linked restaurants. */
const clouds = new WeakSet<object>();

export function markCloudDatabase(db: Executor): void {
  clouds.add(keyOf(db));
}

/**
 * Which endpoints this node sends for a restaurant. An endpoint is sent by one side only
 * (`sent_by`): a linked hub sends its `hub` endpoints (receivers on the venue's network,
 * reached online or not), the cloud the `cloud` ones; a hub on its own sends them all.
 */
export function sendingSide(db: Executor, restaurantId: string): 'all' | 'hub' | 'cloud' {
  if (clouds.has(keyOf(db))) return 'cloud';
  return webhooksHandedOff(db, restaurantId) ? 'hub' : 'all';
}
