import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/assert.ts';
import { DIALECTS } from '../helpers/db.ts';
import { countRows, startHub, type TestHub } from '../helpers/server.ts';
import { SessionClient } from '../service/session-client.ts';

/**
 * Issue 39, as a new tax-inclusive 10 % venue met it: every amount on the check comes from the
 * server's one calculation, and the close ties out.
 */
describe.each(DIALECTS)('money that ties out on %s', (dialect) => {
  let hub: TestHub;
  let entrecote: string;
  let wine: string;
  let tiramisu: string;
  let table: string;
  let server: SessionClient;
  let managerId: string;
  beforeAll(async () => {
    hub = await startHub(dialect);
    expect((await hub.api.patch('/v1/settings', { prices_include_tax: true, default_tax_rate: 0.1 })).status).toBe(200);
    const cat = (await hub.api.post('/v1/menu_categories', { name: 'Carte' })).body;
    entrecote = (await hub.api.post('/v1/menu_items', { name: 'Entrecote', category: cat.id, price: 2850 })).body.id;
    wine = (await hub.api.post('/v1/menu_items', { name: 'Wine', category: cat.id, price: 750 })).body.id;
    tiramisu = (await hub.api.post('/v1/menu_items', { name: 'Tiramisu', category: cat.id, price: 850 })).body.id;
    table = (await hub.api.post('/v1/tables', { number: 5, capacity: 4 })).body.id;
    const mk = async (name: string, role: string) => {
      const r = await hub.api.post('/v1/staff', { name, email: `${name.toLowerCase()}@example.com`, role });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      await hub.api.post(`/v1/staff/${r.body.id}/password`, { password: `${name} password 1` });
      return r.body.id as string;
    };
    managerId = await mk('Mia', 'manager');
    await mk('Sam', 'server');
    expect((await hub.api.post(`/v1/staff/${managerId}/pin`, { pin: '9753' })).status).toBe(200);
    server = new SessionClient(hub.url, { 'x-forwarded-for': '192.168.1.61' });
    expect((await server.request('POST', '/v1/auth/login', { email: 'sam@example.com', password: 'Sam password 1' })).status).toBe(200);
  });
  afterAll(async () => {
    await hub?.close();
  });

  const sent = async (items: object[], opts: object = {}) => {
    const r = await hub.api.post('/v1/orders', { type: 'dine_in', status: 'placed', items, ...opts });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body;
  };

  it('gives every line its net amount and every seat its total: what a seat is charged is what the check showed', async () => {
    const o = await sent([
      { menu_item: entrecote, quantity: 1, seat: 3 },
      { menu_item: wine, quantity: 1, seat: 3 },
      { menu_item: tiramisu, quantity: 1, seat: 3 },
      { menu_item: wine, quantity: 2, seat: 1 },
    ]);
    // the menu price is what the guest pays: tax inside, never added again
    expect(o.items[0]).toMatchObject({ net_amount: 2850, tax_amount: 259, comped: false });
    expect((await hub.api.post(`/v1/orders/${o.id}/items/1/void`, { reason: 'wrong wine' })).status).toBe(200);
    expect((await hub.api.post(`/v1/orders/${o.id}/items/2/discount`, { percent: 100, reason: 'birthday' })).status).toBe(200);
    const check = (await hub.api.get(`/v1/orders/${o.id}`)).body;
    expect(check.items.map((l: any) => l.net_amount)).toEqual([2850, 0, 0, 1500]);
    expect(check.items[2]).toMatchObject({ comped: true, discount_amount: 850 });
    expect(check.seats).toEqual([
      { seat: 1, net_amount: 1500, tax_amount: 136, lines: 1 },
      { seat: 3, net_amount: 2850, tax_amount: 259, lines: 2 },
    ]);
    expect(check.total).toBe(4350);

    // pay seat 3 by its lines: the amount recorded is the seat's total on the check
    const seat3 = check.items.filter((l: any) => l.seat === 3 && !l.voided_at && !l.comped).map((l: any) => l.id);
    const paid = await hub.api.post(`/v1/orders/${o.id}/payments`, { method: 'card', items: seat3 });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    expect(paid.body.amount).toBe(check.seats.find((s: any) => s.seat === 3).net_amount);
    expect((await hub.api.get(`/v1/orders/${o.id}`)).body).toMatchObject({ amount_due: 1500, amount_paid: 2850 });
  });

  it('spreads a check discount over the lines: the tax is on what is left, the lines still add up to the total', async () => {
    const o = await sent([
      { menu_item: entrecote, quantity: 1, seat: 1 },
      { menu_item: wine, quantity: 1, seat: 2 },
    ]);
    const d = await hub.api.post(`/v1/orders/${o.id}/discount`, { amount: 1001, reason: 'regulars' });
    expect(d.status, JSON.stringify(d.body)).toBe(200);
    const lines = d.body.items;
    expect(lines.reduce((s: number, l: any) => s + l.check_discount_amount, 0)).toBe(1001);
    expect(lines.reduce((s: number, l: any) => s + l.net_amount, 0)).toBe(d.body.total);
    expect(d.body.total).toBe(3600 - 1001);
    expect(d.body.tax_amount).toBe(lines.reduce((s: number, l: any) => s + l.tax_amount, 0));
    // 10 % inside 2,599 is about 236, not the 327 of the prices before the discount
    expect(d.body.tax_amount).toBeLessThan(240);
  });

  it('fixes the currency once money exists, and every payment and refund names it', async () => {
    const fresh = await startHub(dialect);
    try {
      expect((await fresh.api.patch('/v1/settings', { currency: 'jpy' })).status).toBe(200);
      expect((await fresh.api.patch('/v1/settings', { currency: 'eur' })).status).toBe(200);
    } finally {
      await fresh.close();
    }
    const before = await countRows(hub, 'restaurants');
    expectError(await hub.api.patch('/v1/settings', { currency: 'jpy' }), 409, 'currency_locked', 'currency');
    expect((await hub.api.get('/v1/settings')).body.currency).toBe('eur');
    expect(await countRows(hub, 'restaurants')).toBe(before);
    const o = await sent([{ menu_item: wine, quantity: 1 }]);
    const p = (await hub.api.post(`/v1/orders/${o.id}/payments`, { method: 'cash', amount: 750 })).body;
    expect(p.currency).toBe('eur');
    const r = (await hub.api.post(`/v1/payments/${p.id}/refund`, { amount: 100 })).body;
    expect(r.refunds[0].currency).toBe('eur');
  });

  it("asks a manager's approval to cancel a check with lines at the stations, and the close lists it with who approved", async () => {
    const o = (await server.request('POST', '/v1/orders', { type: 'dine_in', table, status: 'placed', items: [{ menu_item: entrecote, quantity: 2 }] })).body;
    expect(o.status).toBe('placed');
    for (const [method, path, body] of [
      ['POST', `/v1/orders/${o.id}/cancel`, { cancel_reason: 'walked out' }],
      ['PATCH', `/v1/orders/${o.id}`, { status: 'cancelled', cancel_reason: 'walked out' }],
    ] as const) {
      const refused = await server.request(method, path, body);
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('approval_required');
    }
    expect((await hub.api.get(`/v1/orders/${o.id}`)).body.status).toBe('placed');
    const ok = await server.request('POST', `/v1/orders/${o.id}/cancel`, { cancel_reason: 'walked out', manager_pin: '9753' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ status: 'cancelled', cancel_approved_by: managerId });
    // a check nobody has sent yet cancels without asking
    const draft = (await server.request('POST', '/v1/orders', { type: 'takeout', items: [{ menu_item: wine, quantity: 1 }] })).body;
    expect((await server.request('POST', `/v1/orders/${draft.id}/cancel`, { cancel_reason: 'typo' })).status).toBe(200);

    const close = (await hub.api.get(`/v1/reports/day_close?date=${o.created ? new Date(o.created * 1000).toISOString().slice(0, 10) : ''}`)).body;
    expect(close.cancellations.orders).toEqual([expect.objectContaining({ id: o.id, amount: 5700, reason: 'walked out', approved_by: managerId, approved_by_name: 'Mia' })]);
  });

  it("bounds tips: above the venue's bound a manager approves; a tip is corrected with approval", async () => {
    const o = await sent([{ menu_item: wine, quantity: 4 }]);
    expectError(await hub.api.post(`/v1/orders/${o.id}/payments`, { method: 'card', amount: 10, tip_amount: 1_000_000_000 }), 400, 'parameter_invalid', 'tip_amount');
    const before = await countRows(hub, 'payments');
    const refused = await server.request('POST', `/v1/orders/${o.id}/payments`, { method: 'card', amount: 1000, tip_amount: 1001 });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('approval_required');
    expect(await countRows(hub, 'payments')).toBe(before);
    const approved = await server.request('POST', `/v1/orders/${o.id}/payments`, { method: 'card', amount: 1000, tip_amount: 1001, manager_pin: '9753' });
    expect(approved.status, JSON.stringify(approved.body)).toBe(201);
    expect(approved.body).toMatchObject({ tip_amount: 1001, tip_approved_by: managerId });
    const within = await server.request('POST', `/v1/orders/${o.id}/payments`, { method: 'cash', amount: 2000, tip_amount: 200 });
    expect(within.body).toMatchObject({ tip_amount: 200, tip_approved_by: null });

    const noPin = await server.request('POST', `/v1/payments/${within.body.id}/tip`, { tip_amount: 20 });
    expect(noPin.body.error.code).toBe('approval_required');
    const fixed = await server.request('POST', `/v1/payments/${within.body.id}/tip`, { tip_amount: 20, manager_pin: '9753' });
    expect(fixed.status, JSON.stringify(fixed.body)).toBe(200);
    expect(fixed.body).toMatchObject({ tip_amount: 20, tip_approved_by: managerId });
    const close = (await hub.api.get(`/v1/reports/day_close?date=${within.body.business_date}`)).body;
    expect(close.total_tips).toBe(close.tips_by_server.reduce((s: number, t: any) => s + t.tip_amount, 0));
  });

  it('ties the Z report out: gross − discounts − comps = net, each discount counted once, tax on the base after discounts, voids with their amount', async () => {
    const o = await sent([
      { menu_item: entrecote, quantity: 1 },
      { menu_item: wine, quantity: 2 },
      { menu_item: tiramisu, quantity: 1 },
      { menu_item: wine, quantity: 1 },
    ]);
    await hub.api.post(`/v1/orders/${o.id}/items/3/void`, { reason: 'spilled' });
    await hub.api.post(`/v1/orders/${o.id}/items/2/discount`, { percent: 100, reason: 'birthday' });
    await hub.api.post(`/v1/orders/${o.id}/items/1/discount`, { amount: 300, reason: 'corked' });
    await hub.api.post(`/v1/orders/${o.id}/discount`, { percent: 10, reason: 'regulars' });
    const check = (await hub.api.get(`/v1/orders/${o.id}`)).body;
    const close = (await hub.api.get(`/v1/reports/day_close?date=${new Date(check.created * 1000).toISOString().slice(0, 10)}`)).body;
    const s = close.sales;
    expect(s.gross - s.discounts - s.comps).toBe(s.net);
    expect(s.by_tax_rate.reduce((t: number, r: any) => t + r.base, 0)).toBe(s.net);
    expect(s.by_tax_rate.reduce((t: number, r: any) => t + r.tax, 0)).toBe(s.tax);
    expect(s.net_excl_tax).toBe(s.net - s.tax);
    expect(s.total).toBe(s.net + s.delivery_fees + s.order_tips);
    // this check's share: one comp (850), two discounts (300 on a line, 10 % of the rest)
    expect(close.comps.count).toBeGreaterThanOrEqual(2);
    expect(close.voids.amount).toBeGreaterThanOrEqual(750 + 750);
    const live = await hub.api.get(`/v1/orders?limit=100`);
    const day = live.body.data.filter((x: any) => x.status !== 'cancelled' && x.status !== 'draft');
    expect(s.total).toBe(day.reduce((t: number, x: any) => t + x.total, 0));
  });
});
