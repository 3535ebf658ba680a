import { z } from 'zod';
import { createStation, findStation, updateStation } from '../../domain/menu/stations.ts';
import { mustExist } from '../../errors.ts';
import { f } from '../../model/fields.ts';
import { mapPage, paginate } from '../../http/pagination.ts';
import { listParams } from '../../http/query.ts';
import { defineRoute, type RouteSpec } from '../../http/route.ts';
import { presentStation, StationSchema } from '../../presenters/stations.ts';
import { listOf } from '../../model/schemas.ts';

const tag = 'Stations';
const key = z.object({ key: z.string().min(1).max(64) });
const stationKey = z
  .string()
  .regex(/^[a-z][a-z0-9_-]{0,31}$/, 'must be 1–32 lowercase letters, digits, - or _, starting with a letter');

export const routes: RouteSpec[] = [
  defineRoute({
    method: 'get',
    path: '/v1/stations',
    response: listOf(StationSchema),
    summary: "List kitchen stations in the kitchen's order: by position, then oldest first (kitchen, bar, dessert, other, then your own)",
    tag,
    auth: 'secret',
    sandbox: 'read_only',
    scope: 'menu:read',
    query: z.object(listParams()),
    handler: async (c) => {
      const qb = c.db.selectFrom('stations').selectAll().where('restaurant_id', '=', c.actor().restaurantId);
      const page = await paginate(qb, {
        ...c.query,
        defaultLimit: 100,
        url: '/v1/stations',
        keys: [
          { column: 'position', field: 'position', direction: 'asc' },
          { column: 'created', field: 'created', direction: 'asc' },
          { column: 'id', field: 'id', direction: 'asc' },
        ],
      });
      return mapPage(page, (rows) => rows.map(presentStation));
    },
  }),

  defineRoute({
    method: 'get',
    path: '/v1/stations/:key',
    response: StationSchema,
    summary: 'Retrieve a station by key or stn_ id',
    tag,
    auth: 'secret',
    sandbox: 'read_only',
    scope: 'menu:read',
    params: key,
    handler: async (c) => {
      const row = mustExist(await findStation(c.db, c.actor().restaurantId, c.params.key), 'station', c.params.key, 'key');
      return presentStation(row);
    },
  }),

  defineRoute({
    method: 'post',
    path: '/v1/stations',
    response: StationSchema,
    summary: 'Add a kitchen station',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'menu:write',
    body: z.object({ key: stationKey, name: f.name().optional() }),
    idempotent: true,
    status: 201,
    handler: async (c) => presentStation(await createStation(c.db, c.actor(), c.body)),
  }),

  defineRoute({
    method: 'patch',
    path: '/v1/stations/:key',
    errors: ['resource_conflict'],
    response: StationSchema,
    summary: 'Rename, deactivate or reactivate a station; set the ticket ages (minutes) at which its kitchen screen turns amber and red, and its position in the kitchen\'s order',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'menu:write',
    params: key,
    body: z.object({
      name: f.name().optional(),
      is_active: z.boolean().optional(),
      warn_after_minutes: z.number().int().min(1).max(240).nullable().optional(),
      late_after_minutes: z.number().int().min(1).max(240).nullable().optional(),
      /** the kitchen's order: screens and tickets list stations by position, lowest first */
      position: z.number().int().min(0).max(1000).optional(),
    }),
    handler: async (c) => presentStation(await c.services.tx.run((trx) => updateStation(trx, c.actor(), c.params.key, c.body))),
  }),

  defineRoute({
    method: 'delete',
    path: '/v1/stations/:key',
    errors: ['resource_conflict'],
    response: StationSchema,
    summary: 'Deactivate a station (refused while active categories route to it)',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'menu:write',
    params: key,
    handler: async (c) =>
      presentStation(await c.services.tx.run((trx) => updateStation(trx, c.actor(), c.params.key, { is_active: false }))),
  }),
];
