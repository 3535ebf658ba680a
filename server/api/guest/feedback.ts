import { recordFeedback } from '../../domain/feedback/feedback.ts';
import { restaurantBySlug } from '../../domain/waitlist/access.ts';
import { notFound } from '../../errors.ts';
import { mapPage, NEWEST_FIRST, paginate } from '../../http/pagination.ts';
import { defineRoute, idParam, type RouteSpec } from '../../http/route.ts';
import { guestLookup, guestSubmission, limitIp } from './guard.ts';
import { FeedbackSchema, presentFeedback } from '../../presenters/guest.ts';
import { ListFeedback, SlugParam, SubmitFeedback } from './schema.ts';
import { listOf } from '../../model/schemas.ts';

export const routes: RouteSpec[] = [
  defineRoute({
    method: 'post',
    path: '/public/restaurants/:slug/feedback',
    response: FeedbackSchema,
    preflight: limitIp,
    errors: ['captcha_invalid', 'captcha_required'],
    summary:
      'Leave feedback: rating 1–5, comment up to 2,000 characters, optional orderId of this restaurant. Past a rate (or when the venue asks it always) 403 captcha_required: solve /public/captcha and send again with captchaToken',
    tag: 'Guest: feedback',
    auth: 'none',
    sandbox: 'keyless',
    params: SlugParam,
    body: SubmitFeedback,
    status: 201,
    handler: async (c) => {
      const { restaurant, settings } = await guestLookup(c, (db) => restaurantBySlug(db, c.params.slug), (f) => f.restaurant.id);
      const actor = { restaurantId: restaurant.id, livemode: true, now: c.now };
      const { captchaToken: _, ...feedback } = c.body;
      const row = await guestSubmission(c, { id: restaurant.id, settings }, (trx) => recordFeedback(trx, actor, feedback));
      return presentFeedback(row);
    },
  }),

  defineRoute({
    method: 'get',
    path: '/v1/feedback',
    response: listOf(FeedbackSchema),
    summary: 'List guest feedback, newest first',
    tag: 'Feedback',
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'feedback:read',
    query: ListFeedback,
    handler: async (c) => {
      let qb = c.db.selectFrom('feedback').selectAll().where('restaurant_id', '=', c.actor().restaurantId);
      if (c.query.rating !== undefined) qb = qb.where('rating', '=', c.query.rating);
      const page = await paginate(qb, { ...c.query, keys: NEWEST_FIRST('feedback'), url: '/v1/feedback' });
      return mapPage(page, async (rows) => rows.map(presentFeedback));
    },
  }),

  defineRoute({
    method: 'get',
    path: '/v1/feedback/:id',
    response: FeedbackSchema,
    summary: 'Retrieve one feedback record',
    tag: 'Feedback',
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'feedback:read',
    params: idParam('fb_ id'),
    handler: async (c) => {
      const row = await c.db
        .selectFrom('feedback')
        .selectAll()
        .where('restaurant_id', '=', c.actor().restaurantId)
        .where('id', '=', c.params.id)
        .executeTakeFirst();
      if (!row) throw notFound('feedback', c.params.id);
      return presentFeedback(row);
    },
  }),
];
