import { createStaff, findStaff, updateStaff } from '../../domain/staff/staff.ts';
import { notFound } from '../../errors.ts';
import { registerExpandable } from '../../http/expand.ts';
import { mapPage, NEWEST_FIRST, paginate } from '../../http/pagination.ts';
import { defineRoute, idParam } from '../../http/route.ts';
import { presentStaff, StaffUserSchema } from './presenter.ts';
import { CreateStaff, ListStaff, UpdateStaff } from './schema.ts';
import { listOf } from '../../http/schemas.ts';

registerExpandable('staff_user', {
  load: async ({ db, restaurantId }, ids) => {
    const rows = await db.selectFrom('users').selectAll().where('restaurant_id', '=', restaurantId).where('id', 'in', ids).execute();
    return new Map(rows.map((r) => [r.id, presentStaff(r)]));
  },
});

const tag = 'Staff';

defineRoute({
  method: 'get',
  path: '/v1/staff',
  response: listOf(StaffUserSchema),
  summary: 'List staff users, newest first',
  tag,
  auth: 'secret',
  scope: 'staff:read',
  query: ListStaff,
  handler: async (c) => {
    let qb = c.db.selectFrom('users').selectAll().where('restaurant_id', '=', c.actor().restaurantId);
    if (c.query.is_active !== undefined) qb = qb.where('is_active', '=', c.query.is_active ? 1 : 0);
    const page = await paginate(qb, { ...c.query, keys: NEWEST_FIRST('users'), url: '/v1/staff' });
    return mapPage(page, (rows) => rows.map(presentStaff));
  },
});

defineRoute({
  method: 'get',
  path: '/v1/staff/:id',
  response: StaffUserSchema,
  summary: 'Retrieve a staff user',
  tag,
  auth: 'secret',
  scope: 'staff:read',
  params: idParam('usr_ id'),
  handler: async (c) => {
    const row = await findStaff(c.db, c.actor().restaurantId, c.params.id);
    if (!row) throw notFound('staff user', c.params.id);
    return presentStaff(row);
  },
});

defineRoute({
  method: 'post',
  path: '/v1/staff',
  response: StaffUserSchema,
  summary: 'Create a staff user (email unique per restaurant)',
  tag,
  auth: 'secret',
  scope: 'staff:write',
  body: CreateStaff,
  idempotent: true,
  status: 201,
  handler: async (c) => presentStaff(await createStaff(c.db, c.actor(), c.body)),
});

defineRoute({
  method: 'patch',
  path: '/v1/staff/:id',
  response: StaffUserSchema,
  summary: 'Update a staff user; only the fields sent change',
  tag,
  auth: 'secret',
  scope: 'staff:write',
  params: idParam('usr_ id'),
  body: UpdateStaff,
  handler: async (c) => presentStaff(await c.services.tx.run((trx) => updateStaff(trx, c.actor(), c.params.id, c.body))),
});

defineRoute({
  method: 'delete',
  path: '/v1/staff/:id',
  response: StaffUserSchema,
  summary: 'Deactivate a staff user (kept for past orders and shifts); returns it with is_active false',
  tag,
  auth: 'secret',
  scope: 'staff:write',
  params: idParam('usr_ id'),
  handler: async (c) => presentStaff(await c.services.tx.run((trx) => updateStaff(trx, c.actor(), c.params.id, { is_active: false }))),
});
