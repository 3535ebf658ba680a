import type { Feature } from '../server/features/feature.ts';
import { cloudRouter } from './cloud.ts';
import { compactLog } from './compact.ts';
import { SyncClient } from './hub.ts';
import { markCloudDatabase } from '../server/domain/webhooks/hand-off.ts';

declare module '../server/services.ts' {
  interface Services {
    /** the hub's link to its cloud (hub role only) */
    sync?: SyncClient;
  }
}

const stops = new WeakMap<object, () => void>();

export const SYNC_JOBS = { compact: 'sync-compact' } as const;

/**
 * Cloud sync. A cloud serves the sync protocol to its hubs under /sync/v1; a hub runs the
 * client that dials out to its cloud once linked. Both compact their change log nightly.
 */
export const syncFeature: Feature = {
  name: 'sync',
  install(host) {
    const { services } = host;
    if (services.config.role === 'cloud') {
      markCloudDatabase(services.db);
      const cloud = cloudRouter(services);
      stops.set(services, cloud.stop);
      host.router.use(cloud.router.routes());
    } else {
      services.sync = new SyncClient(services);
    }
    host.scheduler.add({ name: SYNC_JOBS.compact, schedule: '0 47 4 * * *', run: (s) => compactLog(s.db, { nowMs: s.clock.now() }).then(() => {}) });
  },
  start(host) {
    host.services.sync?.start();
  },
  async stop(host) {
    stops.get(host.services)?.();
    await host.services.sync?.stop();
  },
};
