import { sql } from 'kysely';
import { runShape } from '../../db/statement-shapes.ts';
import type { Executor } from '../../db/records.ts';

/**
 * Order numbers are what staff call out, so they stay short: a per-node counter that
 * restarts every business day (the restaurant's local date). The hub's numbers are bare
 * ("17"); any other node (the cloud, taking orders while the hub is offline) puts its tag
 * in front ("C17"), so numbers made on both sides of an outage never collide. The pair
 * (business_date, order_number) is unique per restaurant (a database constraint).
 */
export function nodeTag(role: 'hub' | 'cloud'): string {
  return role === 'hub' ? '' : 'C';
}

export async function nextOrderNumber(trx: Executor, restaurantId: string, businessDate: string, tag: string): Promise<string> {
  // One atomic upsert: concurrent creates on PostgreSQL serialise on the counter row.
  const { rows } = await runShape(
    trx,
    'order_counters+',
    () =>
      trx
        .insertInto('order_counters')
        .values({ restaurant_id: restaurantId, business_date: businessDate, node_tag: tag, last: 1 })
        .onConflict((oc) => oc.columns(['restaurant_id', 'business_date', 'node_tag']).doUpdateSet({ last: sql<number>`order_counters.last + 1` }))
        .returning('last'),
    [restaurantId, businessDate, tag, 1],
  );
  return `${tag}${rows[0].last}`;
}
