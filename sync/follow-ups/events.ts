import { updateRecord } from '../../server/db/records.ts';
import type { RemoteBatchHook } from '../apply-context.ts';

/**
 * Events new here go through the node's event hooks (its registry's) as a local event does,
 * told which side this node is: webhooks fan each out to the endpoints this side sends.
 */
export const eventsAfterBatch: RemoteBatchHook = {
  name: 'webhooks-after-sync',
  async afterBatch(trx, ctx, t) {
    for (const e of t.events) {
      // a hub that sent its own webhooks before it was linked brings them settled
      if (e.status !== 'pending') continue;
      const event = { id: String(e.id), type: String(e.type), livemode: e.livemode === 1, restaurantId: ctx.restaurantId };
      const plans = [];
      for (const hook of ctx.hooks.events) plans.push(await hook.plan(trx, event, ctx.role));
      // the event came in pending; a hook may settle it here (no endpoint of this side wants it)
      const status = plans.find((p) => p?.status)?.status;
      if (status && status !== e.status) {
        await updateRecord(trx, 'events', { id: event.id, restaurant_id: ctx.restaurantId }, { status, updated: Math.floor(ctx.now / 1000) });
      }
      for (const plan of plans) await plan?.write?.();
    }
  },
};
