import { AvailabilityCache } from '../domain/reservations/availability-cache.ts';
import type { Feature } from './feature.ts';

declare module '../services.ts' {
  interface Services {
    /** availability frames, reused while the restaurant's data is unchanged */
    availabilityCache?: AvailabilityCache;
  }
}

export const reservationsFeature: Feature = {
  name: 'reservations',
  install(host) {
    host.services.availabilityCache = new AvailabilityCache();
  },
};
