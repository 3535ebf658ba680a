import type { Selectable } from 'kysely';
import type { UsersTable } from '../../db/tables/users.table.ts';
import { loadItemsFor } from '../../domain/orders/load.ts';
import type { ExpandableDef } from '../../http/expand.ts';
import { presentOrder, type OrderServer } from '../../presenters/orders.ts';

// An expanded `table` is the venue table as /v1/tables shows it (loader in api/tables).

/**
 * What an expanded `server` shows: the staff user (the same object as /v1/staff) reduced to
 * who served, never pay (orders:read must not reveal wages).
 */
export const presentUser = (u: Pick<Selectable<UsersTable>, 'id' | 'name' | 'email' | 'role'>): OrderServer => ({
  id: u.id,
  object: 'staff_user',
  name: u.name,
  email: u.email,
  role: u.role,
});

/** What of this resource expands, and how it loads when expanded to (its feature declares it). */
export const expandables: Record<string, ExpandableDef> = {
  order: {
    refs: { table: 'table', server: 'user' },
    nested: { items: 'order_item' },
    load: async ({ db, restaurantId }, ids) => {
      const rows = await db.selectFrom('orders').selectAll().where('restaurant_id', '=', restaurantId).where('id', 'in', ids).execute();
      const items = await loadItemsFor(db, rows.map((r) => r.id));
      return new Map(rows.map((r) => [r.id, presentOrder(r, items.get(r.id) ?? [])]));
    },
  },
  order_item: { refs: { menu_item: 'menu_item' } },
  user: {
    personal: true,
    load: async ({ db, restaurantId }, ids) => {
      const rows = await db.selectFrom('users').select(['id', 'name', 'email', 'role']).where('restaurant_id', '=', restaurantId).where('id', 'in', ids).execute();
      return new Map(rows.map((r) => [r.id, presentUser(r)]));
    },
  },
};

