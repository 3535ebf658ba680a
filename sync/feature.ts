import type { Feature } from '../server/features/feature.ts';
import { compactLog } from './compact.ts';
import { SyncClient } from './hub.ts';
import { markCloudDatabase } from '../server/domain/webhooks/hand-off.ts';
import { customersAfterBatch } from './customers-merge.ts';

declare module '../server/services.ts' {
  interface Services {
    /** the hub's link to its cloud (hub role only) */
    sync?: SyncClient;
    /** the cloud's side (cloud role only): `closing` ends the long polls held open when the server stops */
    syncCloud?: { closing: AbortController };
  }
}

export const SYNC_JOBS = { compact: 'sync-compact' } as const;

/**
 * Cloud sync. A cloud serves the sync protocol to its hubs under /sync/v1 (its routes are listed
 * with every other, mounted on a cloud only); a hub runs the
 * client that dials out to its cloud once linked. Both compact their change log nightly.
 */
export const syncFeature: Feature = {
  name: 'sync',
  // the same guest made on both sides while apart is one again (after the orders' roll-ups it moves)
  remoteBatchHooks: [customersAfterBatch],
  install(host) {
    const { services } = host;
    if (services.config.role === 'cloud') {
      markCloudDatabase(services.db);
      // its routes are server/api/sync/cloud-routes.ts (role: 'cloud'), over sync/cloud/
      services.syncCloud = { closing: new AbortController() };
    } else {
      services.sync = new SyncClient(services);
    }
    host.scheduler.add({ name: SYNC_JOBS.compact, schedule: '0 47 4 * * *', run: (s) => compactLog(s.db, { nowMs: s.clock.now() }).then(() => {}) });
  },
  start(host) {
    host.services.sync?.start();
  },
  async stop(host) {
    host.services.syncCloud?.closing.abort();
    await host.services.sync?.stop();
  },
};
