import { deleteRecord } from '../../db/records.ts';
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
    const ids = batch.map((b) => b.id);
    await services.tx.run(async (trx) => {
      await trx.deleteFrom('webhook_attempts').where('event_id', 'in', ids).execute();
      await trx.deleteFrom('webhook_deliveries').where('event_id', 'in', ids).execute();
      for (const e of batch) await deleteRecord(trx, 'events', { id: e.id, restaurant_id: e.restaurant_id });
    });
    total += batch.length;
    if (batch.length < BATCH) break;
  }
  return total;
}
