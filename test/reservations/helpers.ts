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

/** Events of one type recorded for the hub's restaurant, oldest first, with their parsed data. */
export async function eventsOf(hub: TestHub, type: string): Promise<{ id: string; type: string; data: any }[]> {
  const rows = await (hub.server.services.db as any)
    .selectFrom('events')
    .select(['id', 'type', 'data'])
    .where('restaurant_id', '=', hub.restaurant.id)
    .where('type', '=', type)
    .orderBy('id')
    .execute();
  return rows.map((r: any) => ({ ...r, data: JSON.parse(r.data) }));
}

export const EVERY_DAY_NOON_TO_ELEVEN = Object.fromEntries(
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, [{ open: '12:00', close: '23:00' }]]),
);
