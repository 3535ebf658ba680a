import { createCategory, deactivateCategory, findCategory, updateCategory } from '../../domain/menu/categories.ts';
import { mustExist } from '../../errors.ts';
import { registerExpandable, presentWith } from '../../http/expand.ts';
import { mapPage, paginate } from '../../http/pagination.ts';
import { defineRoute, idParam, type RouteSpec } from '../../http/route.ts';
import { normalizeCategoryId } from '../../ids.ts';
import { MenuCategorySchema, presentCategory } from '../../presenters/menu-categories.ts';
import { CreateCategory, ListCategories, UpdateCategory } from './schema.ts';
import { listOf } from '../../model/schemas.ts';

registerExpandable('menu_category', {
  refs: { parent_category: 'menu_category' },
  load: async ({ db, restaurantId }, ids) => {
    const rows = await db
      .selectFrom('menu_categories')
      .selectAll()
      .where('restaurant_id', '=', restaurantId)
      .where('id', 'in', ids.map(normalizeCategoryId))
      .execute();
    return new Map(rows.map((r) => [r.id, presentCategory(r)]));
  },
});

const present = presentWith('menu_category', (r: Parameters<typeof presentCategory>[0]) => presentCategory(r));

const tag = 'Menu categories';
const id = idParam('mc_ id (mcat_ accepted)');

export const routes: RouteSpec[] = [
  defineRoute({
    method: 'get',
    path: '/v1/menu_categories',
    response: listOf(MenuCategorySchema),
    summary: 'List menu categories by sort_order, newest first within the same sort_order',
    tag,
    auth: 'secret',
    sandbox: 'read_only',
    scope: 'menu:read',
    query: ListCategories,
    expand: 'menu_category',
    handler: async (c) => {
      const { restaurantId } = c.actor();
      let qb = c.db.selectFrom('menu_categories').selectAll().where('restaurant_id', '=', restaurantId);
      if (c.query.parent_category) qb = qb.where('parent_category_id', '=', normalizeCategoryId(c.query.parent_category));
      if (c.query.is_active !== false) qb = qb.where('is_active', '=', 1);
      const page = await paginate(qb, {
        ...c.query,
        url: '/v1/menu_categories',
        keys: [
          { column: 'sort_order', field: 'sort_order', direction: 'asc' },
          { column: 'created', field: 'created', direction: 'desc' },
          { column: 'id', field: 'id', direction: 'desc' },
        ],
      });
      return mapPage(page, (rows) => present(c, rows));
    },
  }),

  defineRoute({
    method: 'get',
    path: '/v1/menu_categories/:id',
    response: MenuCategorySchema,
    summary: 'Retrieve a menu category',
    tag,
    auth: 'secret',
    sandbox: 'read_only',
    scope: 'menu:read',
    params: id,
    expand: 'menu_category',
    handler: async (c) => {
      const row = mustExist(await findCategory(c.db, c.actor().restaurantId, c.params.id), 'menu category', c.params.id);
      return (await present(c, [row]))[0];
    },
  }),

  defineRoute({
    method: 'post',
    path: '/v1/menu_categories',
    errors: ['resource_missing', 'unknown_station'],
    response: MenuCategorySchema,
    summary: 'Create a menu category; station must be an active station key (default kitchen)',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'menu:write',
    body: CreateCategory,
    expand: 'menu_category',
    idempotent: true,
    status: 201,
    handler: async (c) => (await present(c, [await createCategory(c.db, c.actor(), c.body)]))[0],
  }),

  defineRoute({
    method: 'patch',
    path: '/v1/menu_categories/:id',
    errors: ['unknown_station'],
    response: MenuCategorySchema,
    summary: 'Update a menu category; only the fields sent change',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'menu:write',
    params: id,
    body: UpdateCategory,
    expand: 'menu_category',
    handler: async (c) => {
      const row = await c.services.tx.run((trx) => updateCategory(trx, c.actor(), c.params.id, c.body));
      return (await present(c, [row]))[0];
    },
  }),

  defineRoute({
    method: 'delete',
    path: '/v1/menu_categories/:id',
    response: MenuCategorySchema,
    summary: 'Deactivate a menu category; returns the deactivated category',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'menu:write',
    params: id,
    handler: async (c) => presentCategory(await c.services.tx.run((trx) => deactivateCategory(trx, c.actor(), c.params.id))),
  }),
];
