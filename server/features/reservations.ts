import { versionsOf } from '../db/versions.ts';
import { AvailabilityCache } from '../domain/reservations/availability-cache.ts';
import { markNoShows } from '../domain/reservations/mark-no-shows.ts';
import type { Feature } from './feature.ts';
import { expandables } from '../api/reservations/routes.ts';
import { reservationsFeed } from '../realtime/feeds.ts';
import { doubleBookingsAfterBatch } from '../../sync/follow-ups/double-bookings.ts';

declare module '../services.ts' {
  interface Services {
    /** availability frames, reused while the restaurant's data is unchanged */
    availabilityCache?: AvailabilityCache;
  }
}

export const NO_SHOW_JOB = 'reservations-no-shows';

export const reservationsFeature: Feature = {
  name: 'reservations',
  expandables,
  realtimeFeeds: [reservationsFeed],
  // the same table booked on both sides while apart is listed for a person
  remoteBatchHooks: [doubleBookingsAfterBatch],
  install(host) {
    host.services.availabilityCache = new AvailabilityCache(versionsOf(host.services.db));
    host.scheduler.add({ name: NO_SHOW_JOB, schedule: '*/5 * * * *', run: markNoShows });
  },
};
