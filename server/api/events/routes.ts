import { z } from 'zod';
import { notFound } from '../../errors.ts';
import { mapPage, NEWEST_FIRST, paginate } from '../../http/pagination.ts';
import { listParams } from '../../http/query.ts';
import { defineRoute, idParam } from '../../http/route.ts';
import { presentEvent } from './presenter.ts';

const tag = 'Events';

defineRoute({
  method: 'get',
  path: '/v1/events',
  summary: 'List events, newest first',
  tag,
  auth: 'secret',
  scope: 'events:read',
  query: z.object({ ...listParams(), type: z.string().min(1).max(100).optional() }),
  handler: async (c) => {
    let qb = c.db.selectFrom('events').selectAll().where('restaurant_id', '=', c.actor().restaurantId);
    if (c.query.type) qb = qb.where('type', '=', c.query.type);
    const page = await paginate(qb, { ...c.query, keys: NEWEST_FIRST('events'), url: '/v1/events' });
    return mapPage(page, (rows) => rows.map((r) => presentEvent(r)));
  },
});

defineRoute({
  method: 'get',
  path: '/v1/events/:id',
  summary: 'Retrieve an event with its delivery history',
  tag,
  auth: 'secret',
  scope: 'events:read',
  params: idParam('evt_ id'),
  handler: async (c) => {
    const row = await c.db
      .selectFrom('events')
      .selectAll()
      .where('restaurant_id', '=', c.actor().restaurantId)
      .where('id', '=', c.params.id)
      .executeTakeFirst();
    if (!row) throw notFound('event', c.params.id);
    return presentEvent(row);
  },
});
