import type { Executor } from '../server/db/records.ts';
import type { ApplyContext } from './apply-context.ts';
import { recordConflict } from './record-conflict.ts';
import type { Touched } from './touched.ts';

export { recordConflict };

/**
 * After a batch is applied, in its transaction: what a local command would have done beside
 * its rows. The sync core knows no feature: each reacts to the batch through the server's
 * registry (its `remoteBatchHooks`, in the features' order: the orders' bills, tickets and
 * roll-ups, double bookings, webhooks' fan-out, the same guest made on both sides), as the
 * change log fans a batch out to its listeners. Then what the rules could not settle alone is
 * listed for a person.
 */
export async function afterApply(trx: Executor, ctx: ApplyContext, t: Touched): Promise<void> {
  for (const hook of ctx.hooks.remoteBatch) await hook.afterBatch(trx, ctx, t);
  for (const c of t.unapplied) {
    await recordConflict(trx, ctx, 'not_applied', c.table, [c.row_id], { reason: 'a unique rule of this node refused it', change: c });
  }
  for (const o of t.overruled) {
    await recordConflict(trx, ctx, 'status_overruled', o.table, [o.id], { kept: o.kept, overruled: o.overruled, from: o.origin });
  }
}
