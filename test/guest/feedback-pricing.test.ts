import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRecord } from '../../server/db/records.ts';
import { PLANS } from '../../server/domain/restaurants/plans.ts';
import { newId, PREFIXES } from '../../server/ids.ts';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { counts, solvedCaptcha } from './helpers.ts';

async function makeOrder(hub: TestHub, restaurantId: string) {
  const now = Math.floor(hub.clock.now() / 1000);
  return hub.server.services.tx.run((trx) =>
    insertRecord(trx, 'orders', {
      id: newId(PREFIXES.order, hub.clock.now()),
      restaurant_id: restaurantId,
      order_number: '1001',
      business_date: '2026-11-02',
      type: 'dine_in',
      status: 'completed',
      source: 'pos',
      table_id: null,
      server_id: null,
      customer_id: null,
      customer_name: null,
      customer_phone: null,
      customer_email: null,
      delivery_address: null,
      estimated_time_minutes: null,
      subtotal: 1000,
      tax_amount: 190,
      discount_amount: 0,
      tip_amount: 0,
      delivery_fee: 0,
      amount_paid: 0,
      total: 1190,
      currency: 'eur',
      notes: null,
      placed_at: now,
      completed_at: now,
      cancelled_at: null,
      cancel_reason: null,
      is_self_service: 0,
      is_virtual_table: 0,
      virtual_table_label: null,
      qr_code_id: null,
      livemode: 1,
      created: now,
      updated: now,
    }),
  );
}

describe.each(DIALECTS)('feedback on %s', (dialect) => {
  let hub: TestHub;
  const WRITES = ['feedback', 'change_log'];
  beforeAll(async () => {
    hub = await startHub(dialect);
  });
  afterAll(() => hub?.close());
  // as the feedback page sends it: with the bot check solved
  const post = async (body: Record<string, unknown>, slug = hub.restaurant.slug) =>
    hub.api.post(`/public/restaurants/${slug}/feedback`, { captchaToken: await solvedCaptcha(hub), ...body }, { key: null });

  it('records feedback that staff read at /v1/feedback, optionally tied to one of this restaurant’s orders', async () => {
    const order = await makeOrder(hub, hub.restaurant.id);
    const a = await post({ rating: 5, comment: '  Lovely carbonara  ', orderId: order.id });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ object: 'feedback', rating: 5, comment: 'Lovely carbonara', order: order.id, source: 'guest' });
    const b = await post({ rating: 2 });
    expect(b.body).toMatchObject({ rating: 2, comment: null, order: null });
    const list = await hub.api.get('/v1/feedback');
    expect(list.status).toBe(200);
    expect(list.body.data.map((f: any) => f.id)).toEqual([b.body.id, a.body.id]);
    expect((await hub.api.get('/v1/feedback?rating=5')).body.data.map((f: any) => f.id)).toEqual([a.body.id]);
    expect((await hub.api.get(`/v1/feedback/${a.body.id}`)).body.comment).toBe('Lovely carbonara');
    const logged = await hub.server.services.db.selectFrom('change_log').select('table_name').where('row_id', '=', a.body.id).execute();
    expect(logged).toEqual([{ table_name: 'feedback' }]);
  });

  it('refuses bad ratings, long comments, foreign orders and unknown slugs, writing nothing', async () => {
    const other = await hub.addRestaurant('other-feedback');
    const theirOrder = await makeOrder(hub, other.restaurant.id);
    const mine = await post({ rating: 4 });
    const before = await counts(hub, WRITES);
    const cases: [unknown, number, string, string | null][] = [
      [{ rating: 0 }, 400, 'parameter_invalid', 'rating'],
      [{ rating: 6 }, 400, 'parameter_invalid', 'rating'],
      [{ rating: 4.5 }, 400, 'parameter_invalid', 'rating'],
      [{ rating: '5' }, 400, 'parameter_invalid', 'rating'],
      [{}, 400, 'parameter_missing', 'rating'],
      [{ rating: 3, comment: 'c'.repeat(2001) }, 400, 'parameter_invalid', 'comment'],
      [{ rating: 3, comment: 'c'.repeat(1_000_000) }, 400, 'parameter_invalid', 'comment'],
      [{ rating: 3, comment: 42 }, 400, 'parameter_invalid', 'comment'],
      [{ rating: 3, orderId: theirOrder.id }, 404, 'resource_missing', 'orderId'],
      [{ rating: 3, orderId: 'ord_nope' }, 404, 'resource_missing', 'orderId'],
    ];
    for (const [body, status, code, param] of cases) {
      const r = await post(body as Record<string, unknown>);
      expect(r.status, JSON.stringify(r.body)).toBe(status);
      expect(r.body.error.code).toBe(code);
      expect(r.body.error.param).toBe(param);
    }
    const huge = await post({ rating: 3, comment: 'c'.repeat(1024 * 1024 + 10) });
    expect(huge.status).toBe(413);
    expect(huge.body.error.code).toBe('body_too_large');
    const nowhere = await post({ rating: 3 }, 'no-such-slug');
    expect(nowhere.status).toBe(404);
    // staff reads are scoped: another restaurant's record does not resolve, unknown query params are refused
    expect((await other.api.get(`/v1/feedback/${mine.body.id}`)).status).toBe(404);
    expect((await other.api.get('/v1/feedback')).body.data).toEqual([]);
    expect((await hub.api.get('/v1/feedback?rating=6')).status).toBe(400);
    expect((await hub.api.get('/v1/feedback?stars=5')).body.error.code).toBe('parameter_unknown');
    expect(await counts(hub, WRITES)).toEqual(before);
  });
});

describe.each(DIALECTS)('public pricing on %s', (dialect) => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub(dialect);
  });
  afterAll(() => hub?.close());

  it('lists the plans on sale in euros per month, from the plan data; retired plans are left out', async () => {
    const r = await hub.api.get('/public/pricing', { key: null });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ object: 'list', currency: 'eur', interval: 'month' });
    const sold = PLANS.filter((p) => p.sold);
    expect(r.body.data.map((p: any) => [p.id, p.priceEurPerMonth])).toEqual(sold.map((p) => [p.id, p.price_eur_month]));
    expect(r.body.data.some((p: any) => p.id === 'classic')).toBe(false);
    expect(r.body.data.find((p: any) => p.id === 'starter').features.waitlist).toBe(false);
    expect((await hub.api.get('/public/pricing?plan=pro', { key: null })).body.error.code).toBe('parameter_unknown');
  });
});

describe.each(DIALECTS)('guest routes in the OpenAPI document on %s', (dialect) => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub(dialect);
  });
  afterAll(() => hub?.close());

  it('documents every guest and staff route of the feature', async () => {
    const r = await hub.api.get('/v1/openapi.json');
    expect(r.status).toBe(200);
    for (const path of [
      '/public/restaurants/{slug}/waitlist',
      '/public/restaurants/{slug}/waitlist/join',
      '/public/waitlist/{token}',
      '/public/waitlist/{token}/leave',
      '/public/restaurants/{slug}/feedback',
      '/public/pricing',
      '/public/captcha',
      '/public/contact',
      '/v1/waitlist',
      '/v1/waitlist/{id}/notify',
      '/v1/feedback',
    ]) {
      expect(r.body.paths[path], path).toBeDefined();
    }
    expect(r.body.paths['/public/restaurants/{slug}/waitlist/join'].post.requestBody).toBeDefined();
  });
});
