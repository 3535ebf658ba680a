import type { Services } from '../server/services.ts';
import { sendOrigins } from './hub.ts';

/**
 * The origins the hub's staff devices reach it at, told to the cloud, which answers CORS for
 * them only (server/http/cors.ts; docs/contributors/two-homes.md). Kept on the hub
 * (`home_origins`), sent whenever the set grows and after every hello.
 */

const known = new WeakMap<Services, Set<string>>();

/** Notes that a staff device reached the hub at `origin`; a new one is told to the cloud at once. */
export async function rememberOrigin(services: Services, origin: string): Promise<void> {
  let set = known.get(services);
  if (!set) known.set(services, (set = new Set()));
  if (set.has(origin)) return;
  set.add(origin);
  const now = Math.floor(services.clock.now() / 1000);
  await services.db
    .insertInto('home_origins')
    .values({ origin, last_seen_at: now })
    .onConflict((oc) => oc.column('origin').doUpdateSet({ last_seen_at: now }))
    .execute();
  sendOrigins(services).catch((err) => services.logger.debug({ err }, 'sync: the cloud did not take the hub’s origins'));
}
