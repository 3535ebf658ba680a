import type { Services } from '../services.ts';

type Listener = (restaurantId: string) => void;
const listeners = new WeakMap<Services, Set<Listener>>();

/**
 * Credentials that live outside the change log (staff sessions) say here that one of a
 * restaurant's was ended, so whoever holds connections made with it (the live feed) checks
 * them at once. Keys and people are records: their changes reach the live feed through the
 * change log, on every process.
 */
export function credentialsRevoked(services: Services, restaurantId: string): void {
  for (const l of listeners.get(services) ?? []) l(restaurantId);
}

export function onCredentialsRevoked(services: Services, listener: Listener): () => void {
  let set = listeners.get(services);
  if (!set) listeners.set(services, (set = new Set()));
  set.add(listener);
  return () => set.delete(listener);
}
