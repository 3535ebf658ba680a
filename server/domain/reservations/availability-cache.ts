import { VersionedCache } from '../../db/versioned-cache.ts';
import type { Versions } from '../../db/versions.ts';
import type { AvailabilityFrame } from './availability.ts';

/**
 * Computed availability frames, valid while the restaurant's data is unchanged (reservations,
 * tables and settings are all replicated records, so the change-log version covers them).
 * A frame counts the bookings of one mode only, so its key names the mode (get-availability.ts).
 */
export class AvailabilityCache extends VersionedCache<AvailabilityFrame> {
  constructor(versions: Versions, maxEntries = 500) {
    super(versions, maxEntries);
  }
}
