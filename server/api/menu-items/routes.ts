import { deactivateMenuItem, createMenuItem, findMenuItem, updateMenuItem } from '../../domain/menu/items.ts';
import { mustExist } from '../../errors.ts';
import { cachedJson } from '../../http/cached-json.ts';
import { registerExpandable, presentWith } from '../../http/expand.ts';
import { mapPage, NEWEST_FIRST, paginate } from '../../http/pagination.ts';
import { defineRoute, idParam, type RouteSpec } from '../../http/route.ts';
import { normalizeCategoryId } from '../../ids.ts';
import { MENU_TABLES } from '../../domain/menu/catalogue.ts';
import { MenuItemSchema, presentMenuItem } from '../../presenters/menu-items.ts';
import { CreateMenuItem, ListMenuItems, UpdateMenuItem } from './schema.ts';
import { listOf } from '../../model/schemas.ts';

registerExpandable('menu_item', {
  refs: { category: 'menu_category', modifier_groups: 'modifier_group' },
  load: async ({ db, restaurantId }, ids) => {
    const rows = await db.selectFrom('menu_items').selectAll().where('restaurant_id', '=', restaurantId).where('id', 'in', ids).execute();
    return new Map(rows.map((r) => [r.id, presentMenuItem(r)]));
  },
});

const present = presentWith('menu_item', (r: Parameters<typeof presentMenuItem>[0]) => presentMenuItem(r));

const tag = 'Menu items';

export const routes: RouteSpec[] = [
  defineRoute({
    method: 'get',
    path: '/v1/menu_items',
    response: listOf(MenuItemSchema),
    summary: 'List menu items, newest first',
    tag,
    auth: 'secret',
    sandbox: 'read_only',
    scope: 'menu:read',
    query: ListMenuItems,
    expand: 'menu_item',
    // Menus are read far more than written: the page is served from cache until the next write.
    handler: async (c) =>
      cachedJson(c, `menu_items?${c.ctx.querystring}`, async () => {
        const { restaurantId } = c.actor();
        let qb = c.db.selectFrom('menu_items').selectAll().where('restaurant_id', '=', restaurantId);
        if (c.query.category) qb = qb.where('category_id', '=', normalizeCategoryId(c.query.category));
        if (c.query.is_available === true) qb = qb.where('is_available', '=', 1);
        if (c.query.is_available === false) qb = qb.where('is_available', '=', 0);
        // Soft-deleted items are left out unless is_active=false asks to include them.
        if (c.query.is_active !== false) qb = qb.where('is_active', '=', 1);
        const page = await paginate(qb, { ...c.query, keys: NEWEST_FIRST('menu_items'), url: '/v1/menu_items' });
        return mapPage(page, (rows) => present(c, rows));
      }, MENU_TABLES),
  }),

  defineRoute({
    method: 'get',
    path: '/v1/menu_items/:id',
    response: MenuItemSchema,
    summary: 'Retrieve a menu item',
    tag,
    auth: 'secret',
    sandbox: 'read_only',
    scope: 'menu:read',
    params: idParam('mi_ id'),
    expand: 'menu_item',
    handler: async (c) => {
      const row = mustExist(await findMenuItem(c.db, c.actor().restaurantId, c.params.id), 'menu item', c.params.id);
      return (await present(c, [row]))[0];
    },
  }),

  defineRoute({
    method: 'post',
    path: '/v1/menu_items',
    errors: ['resource_missing', 'unknown_station'],
    response: MenuItemSchema,
    summary: 'Create a menu item',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'menu:write',
    body: CreateMenuItem,
    expand: 'menu_item',
    idempotent: true,
    status: 201,
    handler: async (c) => (await present(c, [await createMenuItem(c.db, c.actor(), c.body)]))[0],
  }),

  defineRoute({
    method: 'patch',
    path: '/v1/menu_items/:id',
    errors: ['unknown_station'],
    response: MenuItemSchema,
    summary: 'Update a menu item; only the fields sent change. is_available=false hides it on every channel at once.',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'menu:write',
    params: idParam('mi_ id'),
    body: UpdateMenuItem,
    expand: 'menu_item',
    handler: async (c) => {
      const row = await c.services.tx.run((trx) => updateMenuItem(trx, c.actor(), c.params.id, c.body));
      return (await present(c, [row]))[0];
    },
  }),

  defineRoute({
    method: 'delete',
    path: '/v1/menu_items/:id',
    response: MenuItemSchema,
    summary: 'Deactivate (soft-delete) a menu item; returns it with is_active false',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'menu:write',
    params: idParam('mi_ id'),
    handler: async (c) => {
      const row = await c.services.tx.run((trx) => deactivateMenuItem(trx, c.actor(), c.params.id));
      return presentMenuItem(row);
    },
  }),
];
