import { deleteRecord, type Executor } from '../../db/records.ts';
import { locksRows } from '../../db/row-locks.ts';
import type { Services } from '../../services.ts';
import { webhooksConfig } from './config.ts';

const BATCH = 200;

/**
 * Drops events older than the retention (30 days by default) with their deliveries and
 * attempts, but only once they are settled: an event still being retried is kept.
 */
export async function purgeOldEvents(services: Services): Promise<number> {
  const days = webhooksConfig(services.config).eventRetentionDays;
  const cutoff = Math.floor(services.clock.now() / 1000) - days * 86_400;
  let total = 0;
  for (;;) {
    const batch = await services.db
      .selectFrom('events')
      .select(['id', 'restaurant_id'])
      .where('created', '<', cutoff)
      .where('status', '!=', 'pending')
      .limit(BATCH)
      .execute();
    if (batch.length === 0) break;
    total += await services.tx.run((trx) => purgeSettled(trx, batch.map((b) => b.id)));
    if (batch.length < BATCH) break;
  }
  return total;
}

/**
 * Deletes those of `ids` that are still settled, with their deliveries and attempts. They
 * were read before this transaction: a resend since then made an event pending again, with a
 * new delivery to send, and that one must stay (on PostgreSQL the rows are locked first, so a
 * resend committing meanwhile is waited for and seen).
 */
export async function purgeSettled(trx: Executor, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  let q = trx.selectFrom('events').select(['id', 'restaurant_id']).where('id', 'in', ids).where('status', '!=', 'pending');
  if (locksRows(trx)) q = q.forUpdate();
  const settled = await q.execute();
  if (settled.length === 0) return 0;
  const gone = settled.map((e) => e.id);
  await trx.deleteFrom('webhook_attempts').where('event_id', 'in', gone).execute();
  await trx.deleteFrom('webhook_deliveries').where('event_id', 'in', gone).execute();
  for (const e of settled) await deleteRecord(trx, 'events', { id: e.id, restaurant_id: e.restaurant_id });
  return settled.length;
}
