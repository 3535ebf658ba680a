import type { Executor } from '../server/db/records.ts';
import { newId, PREFIXES } from '../server/ids.ts';
import type { ApplyContext } from './apply-context.ts';

/** Lists a conflict for a person on this node (once per kind and records). */
export async function recordConflict(trx: Executor, ctx: ApplyContext, kind: string, table: string, rowIds: string[], detail: unknown): Promise<void> {
  await trx
    .insertInto('sync_conflicts')
    .values({
      id: newId(PREFIXES.syncConflict),
      restaurant_id: ctx.restaurantId,
      kind,
      table_name: table,
      row_ids: JSON.stringify([...rowIds].sort()),
      detail: JSON.stringify(detail),
      resolved_at: null,
      created: Math.floor(ctx.now / 1000),
    })
    .onConflict((oc) => oc.columns(['kind', 'row_ids']).doNothing())
    .execute();
}
