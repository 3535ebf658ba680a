import type { TestHub } from '../helpers/server.ts';

/** Change-log entries of one restaurant: every replicated write appends one, so equal counts prove nothing was written. */
export async function changesOf(hub: TestHub, restaurantId = hub.restaurant.id): Promise<number> {
  const r = await (hub.server.services.db as any)
    .selectFrom('change_log')
    .select((eb: any) => eb.fn.countAll().as('n'))
    .where('restaurant_id', '=', restaurantId)
    .executeTakeFirst();
  return Number(r.n);
}
