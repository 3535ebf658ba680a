import { z } from 'zod';
import type { Selectable } from 'kysely';
import type { Executor } from '../../db/records.ts';
import type { EventsTable } from '../../db/tables/events.table.ts';
import { loadDeliveries, resendEvent } from '../../domain/webhooks/deliveries.ts';
import { mustExist } from '../../errors.ts';
import { f } from '../../model/fields.ts';
import { mapPage, NEWEST_FIRST, paginate } from '../../http/pagination.ts';
import { listParams } from '../../http/query.ts';
import { defineRoute, idParam, type RouteSpec } from '../../http/route.ts';
import { deliveriesByEvent, EventSchema, presentEvent } from '../../presenters/events.ts';
import { listOf } from '../../model/schemas.ts';
import { eventType } from '../webhooks/schema.ts';

const tag = 'Events';

async function present(db: Executor, restaurantId: string, rows: Selectable<EventsTable>[]) {
  const byEvent = deliveriesByEvent(await loadDeliveries(db, restaurantId, rows.map((r) => r.id)));
  return rows.map((r) => presentEvent(r, byEvent.get(r.id) ?? []));
}

async function findEvent(db: Executor, restaurantId: string, livemode: boolean, id: string) {
  return db
    .selectFrom('events')
    .selectAll()
    .where('restaurant_id', '=', restaurantId)
    .where('livemode', '=', livemode ? 1 : 0)
    .where('id', '=', id)
    .executeTakeFirst();
}

export const routes: RouteSpec[] = [
  defineRoute({
    method: 'get',
    path: '/v1/events',
    response: listOf(EventSchema),
    summary: "List the events of the key's mode (live or sandbox), newest first, each with its deliveries and attempts",
    tag,
    auth: 'secret',
    sandbox: 'own_mode',
    scope: 'events:read',
    query: z.object({ ...listParams(), type: eventType.optional() }),
    handler: async (c) => {
      const actor = c.actor();
      let qb = c.db
        .selectFrom('events')
        .selectAll()
        .where('restaurant_id', '=', actor.restaurantId)
        .where('livemode', '=', actor.livemode ? 1 : 0);
      const type = c.query.type;
      if (type === '*' || type === undefined) {
        // every type
      } else if (type.endsWith('.*')) qb = qb.where('type', 'like', `${type.slice(0, -1)}%`);
      else qb = qb.where('type', '=', type);
      const page = await paginate(qb, { ...c.query, keys: NEWEST_FIRST('events'), url: '/v1/events' });
      return mapPage(page, (rows) => present(c.db, actor.restaurantId, rows));
    },
  }),

  defineRoute({
    method: 'get',
    path: '/v1/events/:id',
    response: EventSchema,
    summary: 'Retrieve an event with its delivery history per endpoint',
    tag,
    auth: 'secret',
    sandbox: 'own_mode',
    scope: 'events:read',
    params: idParam('evt_ id'),
    handler: async (c) => {
      const actor = c.actor();
      const row = mustExist(await findEvent(c.db, actor.restaurantId, actor.livemode, c.params.id), 'event', c.params.id);
      return (await present(c.db, actor.restaurantId, [row]))[0];
    },
  }),

  defineRoute({
    method: 'post',
    path: '/v1/events/:id/resend',
    errors: ['state_conflict'],
    response: EventSchema,
    summary:
      'Send an event again: to `endpoint` (even one it never went to), or to every enabled endpoint it went to. The backoff starts over; past attempts stay.',
    tag,
    auth: 'secret',
    sandbox: 'own_mode',
    scope: 'webhooks:write',
    params: idParam('evt_ id'),
    body: z.object({ endpoint: f.id().optional() }),
    idempotent: true,
    handler: async (c) => {
      const actor = c.actor();
      await resendEvent(c.db, actor, c.params.id, c.body.endpoint);
      const row = await findEvent(c.db, actor.restaurantId, actor.livemode, c.params.id);
      return (await present(c.db, actor.restaurantId, [row!]))[0];
    },
  }),
];
