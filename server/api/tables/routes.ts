import { createTable, deactivateTable, findTable, updateTable } from '../../domain/tables/tables.ts';
import { mustExist } from '../../errors.ts';
import { registerExpandable } from '../../http/expand.ts';
import { mapPage, paginate, type SortKey } from '../../http/pagination.ts';
import { defineRoute, idParam, type RouteSpec } from '../../http/route.ts';
import { presentTable, TableSchema } from '../../presenters/tables.ts';
import { CreateTable, ListTables, UpdateTable } from './schema.ts';
import { listOf } from '../../model/schemas.ts';

// The orders feature registers the same 'table' loader for orders' `table`; registering it
// here too keeps reservation expansion working on its own. registerExpandable merges, so
// the second registration is harmless.
registerExpandable('table', {
  load: async ({ db, restaurantId }, ids) => {
    const rows = await db.selectFrom('tables').selectAll().where('restaurant_id', '=', restaurantId).where('id', 'in', ids).execute();
    return new Map(rows.map((r) => [r.id, presentTable(r)]));
  },
});

const tag = 'Tables';

// Tables list in floor-plan order (by number); numbers are unique per restaurant.
const BY_NUMBER: SortKey[] = [
  { column: 'tables.number', field: 'number', direction: 'asc' },
  { column: 'tables.id', field: 'id', direction: 'asc' },
];

export const routes: RouteSpec[] = [
  defineRoute({
    method: 'get',
    path: '/v1/tables',
    response: listOf(TableSchema),
    summary: 'List tables by number; active ones unless is_active=false',
    tag,
    auth: 'secret',
    sandbox: 'read_only',
    scope: 'tables:read',
    query: ListTables,
    handler: async (c) => {
      let qb = c.db.selectFrom('tables').selectAll().where('restaurant_id', '=', c.actor().restaurantId);
      if (c.query.zone) qb = qb.where('zone', '=', c.query.zone);
      // Like menu items: deactivated tables are left out unless is_active=false asks for them.
      if (c.query.is_active !== false) qb = qb.where('is_active', '=', 1);
      const page = await paginate(qb, { ...c.query, keys: BY_NUMBER, url: '/v1/tables' });
      return mapPage(page, (rows) => rows.map(presentTable));
    },
  }),

  defineRoute({
    method: 'get',
    path: '/v1/tables/:id',
    response: TableSchema,
    summary: 'Retrieve a table',
    tag,
    auth: 'secret',
    sandbox: 'read_only',
    scope: 'tables:read',
    params: idParam('tbl_ id'),
    handler: async (c) => {
      const row = mustExist(await findTable(c.db, c.actor().restaurantId, c.params.id), 'table', c.params.id);
      return presentTable(row);
    },
  }),

  defineRoute({
    method: 'post',
    path: '/v1/tables',
    response: TableSchema,
    summary: 'Create a table',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'tables:write',
    body: CreateTable,
    idempotent: true,
    status: 201,
    handler: async (c) => presentTable(await createTable(c.db, c.actor(), c.body)),
  }),

  defineRoute({
    method: 'patch',
    path: '/v1/tables/:id',
    response: TableSchema,
    summary: 'Update a table; only the fields sent change',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'tables:write',
    params: idParam('tbl_ id'),
    body: UpdateTable,
    handler: async (c) => presentTable(await c.services.tx.run((trx) => updateTable(trx, c.actor(), c.params.id, c.body))),
  }),

  defineRoute({
    method: 'delete',
    path: '/v1/tables/:id',
    response: TableSchema,
    summary: 'Deactivate a table; returns it with is_active false. Existing reservations keep it.',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'tables:write',
    params: idParam('tbl_ id'),
    handler: async (c) => presentTable(await c.services.tx.run((trx) => deactivateTable(trx, c.actor(), c.params.id))),
  }),
];
