import { defineRoute } from '../../http/route.ts';
import { syncStatus, SyncStatusSchema } from '../../../sync/status.ts';

defineRoute({
  method: 'get',
  path: '/v1/sync/status',
  response: SyncStatusSchema,
  summary: 'Where the link between the hub and the cloud stands: connected, what waits each way, lag, conflicts to resolve',
  tag: 'Sync',
  auth: 'secret',
  scope: 'settings:read',
  // conflicts it lists may hold whole changes, guests' details included
  sandbox: 'live_only',
  handler: async (c) => {
    const client = c.services.sync;
    return syncStatus(c.db as any, c.services.config.role, c.actor().restaurantId, c.now, client ? { connected: client.connected, lastError: client.lastError } : undefined);
  },
});
