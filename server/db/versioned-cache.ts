import { flushChanges, type Executor } from './records.ts';

/**
 * Every write of a replicated record appends to the change log in its own transaction, so
 * a restaurant's last change-log position is an exact version of everything read from its
 * records — for this process and any other sharing the database. Read the version BEFORE
 * the data: an entry can then only be older than it claims, never newer.
 */
export async function restaurantVersion(db: Executor, restaurantId: string): Promise<number> {
  // Inside a unit of work, its own changes must count: they are logged before reading.
  await flushChanges(db);
  // ORDER BY … LIMIT 1 walks the (restaurant_id, seq) index from its end; max() would
  // scan every entry of the restaurant on SQLite.
  const r = await db
    .selectFrom('change_log')
    .select('seq')
    .where('restaurant_id', '=', restaurantId)
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  return Number(r?.seq ?? 0);
}

/** Values valid at one version; least recently used entries go first once full. */
export class VersionedCache<T> {
  private entries = new Map<string, { version: number; value: T }>();

  constructor(private readonly maxEntries = 256) {}

  get(key: string, version: number): T | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    this.entries.delete(key);
    if (hit.version !== version) return undefined;
    // Map keeps insertion order: re-inserting makes this the most recently used.
    this.entries.set(key, hit);
    return hit.value;
  }

  set(key: string, version: number, value: T): void {
    this.entries.delete(key);
    this.entries.set(key, { version, value });
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  /** The value for `key` at the restaurant's current version, computed when missing or stale. */
  async through(db: Executor, restaurantId: string, key: string, compute: () => Promise<T>): Promise<T> {
    const version = await restaurantVersion(db, restaurantId);
    const hit = this.get(key, version);
    if (hit !== undefined) return hit;
    const value = await compute();
    this.set(key, version, value);
    return value;
  }
}
