import type { Executor } from '../../db/records.ts';
import type { AvailabilityFrame } from './availability.ts';

/**
 * Computed availability frames, valid while the restaurant's data is unchanged. Every write
 * to a replicated record (reservations, tables, settings…) appends to the change log, so
 * the restaurant's latest change-log position is a version of everything a frame was
 * computed from: a frame stored under an older position is never served. The position is
 * read before the data, so a frame is never filed under a newer position than its data.
 */
export class AvailabilityCache {
  private entries = new Map<string, { version: number; frame: AvailabilityFrame }>();

  constructor(private readonly maxEntries = 500) {}

  async version(db: Executor, restaurantId: string): Promise<number> {
    const r = await db
      .selectFrom('change_log')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .where('restaurant_id', '=', restaurantId)
      .executeTakeFirst();
    return Number(r?.seq ?? 0);
  }

  get(key: string, version: number): AvailabilityFrame | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.version !== version) {
      this.entries.delete(key);
      return undefined;
    }
    // Map keeps insertion order: re-inserting makes this the most recently used.
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit.frame;
  }

  set(key: string, version: number, frame: AvailabilityFrame): void {
    this.entries.delete(key);
    this.entries.set(key, { version, frame });
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }
}
