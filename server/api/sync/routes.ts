import { z } from 'zod';
import { isFloorSession } from '../../http/managers-read.ts';
import { defineRoute, idParam, type RouteSpec } from '../../http/route.ts';
import { syncStatus, SyncStatusSchema } from '../../../sync/status.ts';
import { resolveConflict, SyncConflictSchema } from '../../../sync/conflicts.ts';

const ResolveConflict = z.object({
  /** what the person did about it, for whoever looks later */
  note: z.string().max(500).nullable().optional(),
});

export const routes: RouteSpec[] = [
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
      const status = await syncStatus(c.db as any, c.services.config.role, c.actor().restaurantId, c.now, client ? { connected: client.connected, lastError: client.lastError } : undefined);
      // a server's or cook's session sees that there are conflicts and of what kind, not the
      // changes they hold (guests' names, phones, emails): settling them is the back office's
      return isFloorSession(c.caller) ? { ...status, conflicts: status.conflicts.map((x) => ({ ...x, detail: null })) } : status;
    },
  }),

  defineRoute({
    method: 'post',
    path: '/v1/sync/conflicts/:id/resolve',
    response: SyncConflictSchema,
    summary: 'Settle a sync conflict: a person has looked at it (and perhaps moved a booking); it leaves the status on the hub and the cloud',
    tag: 'Sync',
    auth: 'secret',
    scope: 'settings:write',
    sandbox: 'live_only',
    params: idParam('sconf_ id, as the sync status lists it'),
    body: ResolveConflict,
    errors: ['state_conflict'],
    handler: async (c) => {
      const caller = c.caller!;
      const by = caller.staff?.id ?? caller.keyId;
      return c.services.tx.run((trx) => resolveConflict(trx, c.actor(), c.params.id, { by, note: c.body.note }));
    },
  }),
];
