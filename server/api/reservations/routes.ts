import { modeOf } from '../../domain/modes.ts';
import { createReservation, findReservation, updateReservation } from '../../domain/reservations/reservations.ts';
import { cancelReservation, setReservationStatus } from '../../domain/reservations/status.ts';
import { ApiError, mustExist } from '../../errors.ts';
import { registerExpandable, presentWith } from '../../http/expand.ts';
import { mapPage, NEWEST_FIRST, paginate } from '../../http/pagination.ts';
import { defineRoute, idParam, type RouteSpec } from '../../http/route.ts';
import { presentReservation, ReservationSchema } from '../../presenters/reservations.ts';
import { CreateReservation, ListReservations, SetStatus, UpdateReservation } from './schema.ts';
import { listOf } from '../../model/schemas.ts';
import type { ReservationRow } from '../../db/tables/reservations.table.ts';

// The 'table' type's loader is registered by the tables routes (and by orders).
registerExpandable('reservation', {
  refs: { table: 'table' },
  load: async ({ db, restaurantId }, ids) => {
    const rows = await db.selectFrom('reservations').selectAll().where('restaurant_id', '=', restaurantId).where('id', 'in', ids).execute();
    return new Map(rows.map((r) => [r.id, presentReservation(r)]));
  },
});

const present = presentWith('reservation', (r: ReservationRow) => presentReservation(r));

const tag = 'Reservations';

export const routes: RouteSpec[] = [
  defineRoute({
    method: 'get',
    path: '/v1/reservations',
    response: listOf(ReservationSchema),
    summary: 'List reservations, newest first; date.gte / date.lte compare the reserved time (Unix seconds)',
    tag,
    auth: 'secret',
    sandbox: 'own_mode',
    scope: 'reservations:read',
    query: ListReservations,
    expand: 'reservation',
    handler: async (c) => {
      const q = c.query;
      if (q['date.gte'] !== undefined && q['date.lte'] !== undefined && q['date.gte'] > q['date.lte']) {
        throw new ApiError('parameter_invalid', 'date.gte must not be after date.lte.', 'date.lte');
      }
      const actor = c.actor();
      // a key lists only its own mode's reservations, like orders
      let qb = c.db.selectFrom('reservations').selectAll().where('restaurant_id', '=', actor.restaurantId).where('livemode', '=', modeOf(actor));
      if (q.status) qb = qb.where('status', '=', q.status);
      if (q.date) qb = qb.where('date', '=', q.date);
      if (q['date.gte'] !== undefined) qb = qb.where('starts_at', '>=', q['date.gte']);
      if (q['date.lte'] !== undefined) qb = qb.where('starts_at', '<=', q['date.lte']);
      const page = await paginate(qb, { ...q, keys: NEWEST_FIRST('reservations'), url: '/v1/reservations' });
      return mapPage(page, (rows) => present(c, rows));
    },
  }),

  defineRoute({
    method: 'get',
    path: '/v1/reservations/:id',
    response: ReservationSchema,
    summary: 'Retrieve a reservation',
    tag,
    auth: 'secret',
    sandbox: 'own_mode',
    scope: 'reservations:read',
    params: idParam('rsv_ id'),
    expand: 'reservation',
    handler: async (c) => {
      const row = mustExist(await findReservation(c.db, c.actor(), c.params.id), 'reservation', c.params.id);
      return (await present(c, [row]))[0];
    },
  }),

  defineRoute({
    method: 'post',
    path: '/v1/reservations',
    errors: ['resource_missing', 'restaurant_closed', 'table_unavailable'],
    response: ReservationSchema,
    summary: 'Create a reservation; without a table the smallest free table that fits is assigned',
    tag,
    auth: 'secret',
    sandbox: 'own_mode',
    scope: 'reservations:write',
    body: CreateReservation,
    expand: 'reservation',
    idempotent: true,
    status: 201,
    handler: async (c) => (await present(c, [await createReservation(c.db, c.actor(), c.body)]))[0],
  }),

  defineRoute({
    method: 'patch',
    path: '/v1/reservations/:id',
    errors: ['restaurant_closed', 'state_conflict', 'table_unavailable'],
    response: ReservationSchema,
    summary: 'Update a reservation; a new time, size or table is checked again. Status changes use the status route.',
    tag,
    auth: 'secret',
    sandbox: 'own_mode',
    scope: 'reservations:write',
    params: idParam('rsv_ id'),
    body: UpdateReservation,
    expand: 'reservation',
    handler: async (c) => {
      const { status: _ignored, ...input } = c.body;
      const row = await c.services.tx.run((trx) => updateReservation(trx, c.actor(), c.params.id, input));
      return (await present(c, [row]))[0];
    },
  }),

  defineRoute({
    method: 'patch',
    path: '/v1/reservations/:id/status',
    errors: ['invalid_transition'],
    response: ReservationSchema,
    summary: 'Move a reservation along its lifecycle (pending, confirmed, arrived, seated, completed; cancelled; no_show)',
    tag,
    auth: 'secret',
    sandbox: 'own_mode',
    scope: 'reservations:write',
    params: idParam('rsv_ id'),
    body: SetStatus,
    expand: 'reservation',
    handler: async (c) => {
      const row = await c.services.tx.run((trx) => setReservationStatus(trx, c.actor(), c.params.id, c.body.status));
      return (await present(c, [row]))[0];
    },
  }),

  defineRoute({
    method: 'post',
    path: '/v1/reservations/:id/cancel',
    errors: ['invalid_transition'],
    response: ReservationSchema,
    summary: 'Cancel a reservation; cancelling a cancelled reservation returns it unchanged',
    tag,
    auth: 'secret',
    sandbox: 'own_mode',
    scope: 'reservations:write',
    params: idParam('rsv_ id'),
    expand: 'reservation',
    idempotent: true,
    handler: async (c) => (await present(c, [await cancelReservation(c.db, c.actor(), c.params.id)]))[0],
  }),
];
