import { createInventoryItem, deleteInventoryItem, findInventoryItem, updateInventoryItem } from '../../domain/inventory/items.ts';
import { mustExist } from '../../errors.ts';
import { mapPage, NEWEST_FIRST, paginate } from '../../http/pagination.ts';
import { defineRoute, idParam, type RouteSpec } from '../../http/route.ts';
import { DeletedInventoryItemSchema, InventoryItemSchema, presentInventoryItem } from '../../presenters/inventory-items.ts';
import { CreateInventoryItem, ListInventoryItems, UpdateInventoryItem } from './schema.ts';
import { listOf } from '../../model/schemas.ts';

const tag = 'Inventory';

export const routes: RouteSpec[] = [
  defineRoute({
    method: 'get',
    path: '/v1/inventory_items',
    response: listOf(InventoryItemSchema),
    summary: 'List inventory items, newest first',
    tag,
    auth: 'secret',
    sandbox: 'read_only',
    scope: 'inventory:read',
    query: ListInventoryItems,
    handler: async (c) => {
      const qb = c.db.selectFrom('inventory_items').selectAll().where('restaurant_id', '=', c.actor().restaurantId);
      const page = await paginate(qb, { ...c.query, keys: NEWEST_FIRST('inventory_items'), url: '/v1/inventory_items' });
      return mapPage(page, (rows) => rows.map(presentInventoryItem));
    },
  }),

  defineRoute({
    method: 'get',
    path: '/v1/inventory_items/:id',
    response: InventoryItemSchema,
    summary: 'Retrieve an inventory item',
    tag,
    auth: 'secret',
    sandbox: 'read_only',
    scope: 'inventory:read',
    params: idParam('inv_ id'),
    handler: async (c) => {
      const row = mustExist(await findInventoryItem(c.db, c.actor().restaurantId, c.params.id), 'inventory item', c.params.id);
      return presentInventoryItem(row);
    },
  }),

  defineRoute({
    method: 'post',
    path: '/v1/inventory_items',
    response: InventoryItemSchema,
    summary: 'Create an inventory item',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'inventory:write',
    body: CreateInventoryItem,
    idempotent: true,
    status: 201,
    handler: async (c) => presentInventoryItem(await createInventoryItem(c.db, c.actor(), c.body)),
  }),

  defineRoute({
    method: 'patch',
    path: '/v1/inventory_items/:id',
    response: InventoryItemSchema,
    summary: 'Update an inventory item (e.g. a stock count); only the fields sent change',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'inventory:write',
    params: idParam('inv_ id'),
    body: UpdateInventoryItem,
    handler: async (c) => presentInventoryItem(await c.services.tx.run((trx) => updateInventoryItem(trx, c.actor(), c.params.id, c.body))),
  }),

  defineRoute({
    method: 'delete',
    path: '/v1/inventory_items/:id',
    response: DeletedInventoryItemSchema,
    summary: 'Delete an inventory item',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'inventory:write',
    params: idParam('inv_ id'),
    handler: async (c) => {
      const row = await c.services.tx.run((trx) => deleteInventoryItem(trx, c.actor(), c.params.id));
      return { id: row.id, object: 'inventory_item' as const, deleted: true as const };
    },
  }),
];
