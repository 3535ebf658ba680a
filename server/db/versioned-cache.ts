import type { Executor } from './records.ts';
import type { RecordTable } from './schema.ts';
import type { Versions } from './versions.ts';

/**
 * Values computed from a restaurant's records, each valid at one version of them
 * (db/versions.ts); least recently used entries go first once full.
 */
export class VersionedCache<T> {
  private entries = new Map<string, { version: string; value: T }>();

  constructor(
    private readonly versions: Versions,
    private readonly maxEntries = 256,
  ) {}

  get(key: string, version: string): T | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    this.entries.delete(key);
    if (hit.version !== version) return undefined;
    // Map keeps insertion order: re-inserting makes this the most recently used.
    this.entries.set(key, hit);
    return hit.value;
  }

  set(key: string, version: string, value: T): void {
    this.entries.delete(key);
    this.entries.set(key, { version, value });
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  /**
   * The value for `key` at the restaurant's current version, computed when missing or
   * stale. `tables` narrows the version to the tables the value is made from, so writes
   * elsewhere (orders during service) leave it valid.
   */
  async through(db: Executor, restaurantId: string, key: string, compute: () => Promise<T>, tables?: readonly RecordTable[]): Promise<T> {
    const version = await this.versions.of(db, restaurantId, tables);
    const hit = this.get(key, version);
    if (hit !== undefined) return hit;
    const value = await compute();
    this.set(key, version, value);
    return value;
  }
}

/**
 * One cache per database for one use, made on first use: `perDatabase(n)` gives the getter,
 * and a database is named by its versions.
 */
export function perDatabase<T>(maxEntries: number): (versions: Versions) => VersionedCache<T> {
  const made = new WeakMap<Versions, VersionedCache<T>>();
  return (versions) => {
    let cache = made.get(versions);
    if (!cache) made.set(versions, (cache = new VersionedCache<T>(versions, maxEntries)));
    return cache;
  };
}
