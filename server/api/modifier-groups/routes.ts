import {
  createModifierGroup,
  deleteModifierGroup,
  findModifierGroup,
  updateModifierGroup,
} from '../../domain/menu/modifier-groups.ts';
import { mustExist } from '../../errors.ts';
import { registerExpandable } from '../../http/expand.ts';
import { mapPage, NEWEST_FIRST, paginate } from '../../http/pagination.ts';
import { defineRoute, idParam, type RouteSpec } from '../../http/route.ts';
import { DeletedModifierGroupSchema, ModifierGroupSchema, presentModifierGroup } from '../../presenters/modifier-groups.ts';
import { CreateModifierGroup, ListModifierGroups, UpdateModifierGroup } from './schema.ts';
import { listOf } from '../../model/schemas.ts';

registerExpandable('modifier_group', {
  load: async ({ db, restaurantId }, ids) => {
    const rows = await db.selectFrom('modifier_groups').selectAll().where('restaurant_id', '=', restaurantId).where('id', 'in', ids).execute();
    return new Map(rows.map((r) => [r.id, presentModifierGroup(r)]));
  },
});

const tag = 'Modifier groups';
const id = idParam('mg_ id');

export const routes: RouteSpec[] = [
  defineRoute({
    method: 'get',
    path: '/v1/modifier_groups',
    response: listOf(ModifierGroupSchema),
    summary: 'List modifier groups, newest first',
    tag,
    auth: 'secret',
    sandbox: 'read_only',
    scope: 'menu:read',
    query: ListModifierGroups,
    handler: async (c) => {
      const qb = c.db.selectFrom('modifier_groups').selectAll().where('restaurant_id', '=', c.actor().restaurantId);
      const page = await paginate(qb, { ...c.query, keys: NEWEST_FIRST('modifier_groups'), url: '/v1/modifier_groups' });
      return mapPage(page, (rows) => rows.map(presentModifierGroup));
    },
  }),

  defineRoute({
    method: 'get',
    path: '/v1/modifier_groups/:id',
    response: ModifierGroupSchema,
    summary: 'Retrieve a modifier group',
    tag,
    auth: 'secret',
    sandbox: 'read_only',
    scope: 'menu:read',
    params: id,
    handler: async (c) => {
      const row = mustExist(await findModifierGroup(c.db, c.actor().restaurantId, c.params.id), 'modifier group', c.params.id);
      return presentModifierGroup(row);
    },
  }),

  defineRoute({
    method: 'post',
    path: '/v1/modifier_groups',
    response: ModifierGroupSchema,
    summary: 'Create a modifier group',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'menu:write',
    body: CreateModifierGroup,
    idempotent: true,
    status: 201,
    handler: async (c) => presentModifierGroup(await createModifierGroup(c.db, c.actor(), c.body)),
  }),

  defineRoute({
    method: 'patch',
    path: '/v1/modifier_groups/:id',
    response: ModifierGroupSchema,
    summary: 'Update a modifier group; every item using it sees the change. A sent modifiers list replaces the old one.',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'menu:write',
    params: id,
    body: UpdateModifierGroup,
    handler: async (c) =>
      presentModifierGroup(await c.services.tx.run((trx) => updateModifierGroup(trx, c.actor(), c.params.id, c.body))),
  }),

  defineRoute({
    method: 'delete',
    path: '/v1/modifier_groups/:id',
    response: DeletedModifierGroupSchema,
    summary: 'Permanently delete a modifier group and remove it from every menu item that used it',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'menu:write',
    params: id,
    handler: async (c) => {
      const { group, removedFrom } = await c.services.tx.run((trx) => deleteModifierGroup(trx, c.actor(), c.params.id));
      return { id: group.id, object: 'modifier_group' as const, deleted: true as const, removed_from_menu_items: removedFrom };
    },
  }),
];
