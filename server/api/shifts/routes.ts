import { z } from 'zod';
import { clockIn, clockOut, findShift } from '../../domain/staff/shifts.ts';
import { mustExist } from '../../errors.ts';
import { registerExpandable, presentWith } from '../../http/expand.ts';
import { f } from '../../model/fields.ts';
import { mapPage, NEWEST_FIRST, paginate } from '../../http/pagination.ts';
import { listParams, q } from '../../http/query.ts';
import { defineRoute, idParam, type RouteSpec } from '../../http/route.ts';
import { presentShift, ShiftSchema } from '../../presenters/shifts.ts';
import { listOf } from '../../model/schemas.ts';

registerExpandable('shift', { refs: { user: 'staff_user' } });

const present = presentWith('shift', (r: Parameters<typeof presentShift>[0]) => presentShift(r));

const tag = 'Shifts';

export const routes: RouteSpec[] = [
  defineRoute({
    method: 'get',
    path: '/v1/shifts',
    response: listOf(ShiftSchema),
    summary: 'List shifts, newest first; filter by user or open shifts',
    tag,
    auth: 'secret',
    // live only: who worked when is personal data, and a sandbox key's test bench has no staff
    sandbox: 'live_only',
    scope: 'staff:read',
    query: z.object({ ...listParams(), user: f.id().optional(), open: q.bool().optional() }),
    expand: 'shift',
    handler: async (c) => {
      let qb = c.db.selectFrom('shifts').selectAll().where('restaurant_id', '=', c.actor().restaurantId);
      if (c.query.user) qb = qb.where('user_id', '=', c.query.user);
      if (c.query.open === true) qb = qb.where('clock_out', 'is', null);
      if (c.query.open === false) qb = qb.where('clock_out', 'is not', null);
      const page = await paginate(qb, { ...c.query, keys: NEWEST_FIRST('shifts'), url: '/v1/shifts' });
      return mapPage(page, (rows) => present(c, rows));
    },
  }),

  defineRoute({
    method: 'get',
    path: '/v1/shifts/:id',
    response: ShiftSchema,
    summary: 'Retrieve a shift',
    tag,
    auth: 'secret',
    // live only: who worked when is personal data, and a sandbox key's test bench has no staff
    sandbox: 'live_only',
    scope: 'staff:read',
    params: idParam('shf_ id'),
    expand: 'shift',
    handler: async (c) => {
      const row = mustExist(await findShift(c.db, c.actor().restaurantId, c.params.id), 'shift', c.params.id);
      return (await present(c, [row]))[0];
    },
  }),

  defineRoute({
    method: 'post',
    path: '/v1/shifts',
    errors: ['resource_missing', 'state_conflict'],
    response: ShiftSchema,
    summary: 'Clock a staff user in: opens a shift now (one open shift per user)',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'staff:write',
    body: z.object({ user: f.id() }),
    expand: 'shift',
    idempotent: true,
    status: 201,
    handler: async (c) => (await present(c, [await clockIn(c.db, c.actor(), c.body.user)]))[0],
  }),

  defineRoute({
    method: 'post',
    path: '/v1/shifts/:id/clock_out',
    errors: ['state_conflict'],
    response: ShiftSchema,
    summary: 'Clock out: closes an open shift now',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'staff:write',
    params: idParam('shf_ id'),
    expand: 'shift',
    handler: async (c) => {
      const row = await c.services.tx.run((trx) => clockOut(trx, c.actor(), c.params.id));
      return (await present(c, [row]))[0];
    },
  }),
];
