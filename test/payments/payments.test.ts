import { describe, expect, it } from 'vitest';
import { createApiKey } from '../../server/domain/keys/create-key.ts';
import { expectError } from '../helpers/assert.ts';
import { DIALECTS } from '../helpers/db.ts';
import { countRows, type TestHub } from '../helpers/server.ts';
import { hubWithMenu, type Menu } from '../orders/fixtures.ts';

describe.each(DIALECTS)('payments on %s', (dialect) => {
  let hub: TestHub;
  let menu: Menu;
  hubWithMenu(dialect, (t) => ({ hub, menu } = t));

  /** A dine-in check at the first table, placed: two pastas (seat 1) and a water (seat 2). */
  async function placedCheck(table = menu.table) {
    const created = await hub.api.post('/v1/orders', {
      type: 'dine_in',
      table,
      items: [
        { menu_item: menu.pasta, quantity: 1 },
        { menu_item: menu.pasta, quantity: 1, modifiers: ['Parmesan'] },
        { menu_item: menu.water, quantity: 2 },
      ],
    });
    expect(created.status).toBe(201);
    const placed = await hub.api.patch(`/v1/orders/${created.body.id}`, { status: 'placed' });
    expect(placed.status).toBe(200);
    return placed.body;
  }
  const lineTotal = (o: any, i: number) => {
    // per line: price + its tax, rounded half up (19 % on food, 7 % on water)
    const l = o.items[i];
    const sub = (l.unit_price + l.modifiers.reduce((s: number, m: any) => s + m.price_adjustment, 0)) * l.quantity;
    return sub + Math.round(sub * (l.name === 'Water' ? 0.07 : 0.19));
  };
  const payments = () => countRows(hub, 'payments');
  const eventsOf = async (type: string) => (await hub.api.get(`/v1/events?type=${type}&limit=100`)).body.data;

  it('pays lines by card with a tip, then the rest in cash with change; the paid check frees its table', async () => {
    const o = await placedCheck();
    expect(o).toMatchObject({ amount_paid: 0, amount_due: o.total, payment_status: 'unpaid' });
    const seat1 = [o.items[0].id, o.items[1].id];
    const card = await hub.api.post(`/v1/orders/${o.id}/payments`, { method: 'card', items: seat1, tip_amount: 300, reference: '4242' });
    expect(card.status).toBe(201);
    const paidSeat1 = lineTotal(o, 0) + lineTotal(o, 1);
    expect(Object.keys(card.body)).toEqual(
      expect.arrayContaining(['object', 'id', 'order', 'amount', 'tip_amount', 'method', 'tendered_amount', 'change_amount', 'items', 'reference', 'status', 'created']),
    );
    expect(card.body).toMatchObject({
      object: 'payment',
      order: o.id,
      amount: paidSeat1,
      tip_amount: 300,
      method: 'card',
      tendered_amount: null,
      change_amount: null,
      items: seat1,
      reference: '4242',
      status: 'succeeded',
      amount_refunded: 0,
      amount_refundable: paidSeat1,
      provider: 'recorded',
    });
    expect(card.body.id).toMatch(/^pay_/);
    const after1 = (await hub.api.get(`/v1/orders/${o.id}`)).body;
    expect(after1).toMatchObject({ amount_paid: paidSeat1, amount_due: o.total - paidSeat1, payment_status: 'partially_paid', status: 'placed' });

    // a line already paid cannot be paid again; nothing is written
    const before = await payments();
    expectError(await hub.api.post(`/v1/orders/${o.id}/payments`, { method: 'cash', items: [o.items[0].id, o.items[2].id] }), 409, 'state_conflict', 'items');
    // more than is still due is refused whole, tips aside
    expectError(await hub.api.post(`/v1/orders/${o.id}/payments`, { method: 'cash', amount: after1.amount_due + 1 }), 400, 'amount_too_large', 'amount');
    expectError(await hub.api.post(`/v1/orders/${o.id}/payments`, { method: 'cash', items: ['oi_nope'] }), 400, 'parameter_invalid', 'items');
    expectError(await hub.api.post(`/v1/orders/${o.id}/payments`, { method: 'cash', amount: 100, items: [o.items[2].id] }), 400, 'parameter_invalid');
    expectError(await hub.api.post(`/v1/orders/${o.id}/payments`, { method: 'card', amount: 100, tendered_amount: 500 }), 400, 'parameter_invalid', 'tendered_amount');
    expectError(await hub.api.post(`/v1/orders/${o.id}/payments`, { method: 'cash', amount: 100, tendered_amount: 50 }), 400, 'parameter_invalid', 'tendered_amount');
    expectError(await hub.api.post(`/v1/orders/${o.id}/payments`, { method: 'cheque', amount: 100 }), 400, 'parameter_invalid', 'method');
    expect(await payments()).toBe(before);

    // seat 2 pays cash; the same request retried with its Idempotency-Key records it once
    const due = after1.amount_due;
    const body = { method: 'cash', items: [o.items[2].id], tendered_amount: due + 1000 - (due % 1000), tip_amount: 50 };
    const headers = { 'Idempotency-Key': `seat2-${o.id}` };
    const cash = await hub.api.post(`/v1/orders/${o.id}/payments`, body, { headers });
    expect(cash.status).toBe(201);
    expect(cash.body).toMatchObject({ amount: due, tip_amount: 50, tendered_amount: body.tendered_amount, change_amount: body.tendered_amount - due - 50 });
    const again = await hub.api.post(`/v1/orders/${o.id}/payments`, body, { headers });
    expect(again.body.id).toBe(cash.body.id);
    expect(await payments()).toBe(before + 1);

    const paid = (await hub.api.get(`/v1/orders/${o.id}`)).body;
    expect(paid).toMatchObject({ amount_paid: o.total, amount_due: 0, payment_status: 'paid', status: 'completed' });
    // nothing is owed: no further payment
    expectError(await hub.api.post(`/v1/orders/${o.id}/payments`, { method: 'cash', amount: 1 }), 409, 'state_conflict');
    // the table holds no open order any more: a new check opens on it
    const open = await hub.api.get(`/v1/orders?table=${menu.table}&status=placed`);
    expect(open.body.data.map((x: any) => x.id)).not.toContain(o.id);

    // events: each payment, the order paid, then completed
    expect((await eventsOf('payment.succeeded')).map((e: any) => e.data.object.id)).toEqual(expect.arrayContaining([card.body.id, cash.body.id]));
    const paidEvents = (await eventsOf('order.paid')).filter((e: any) => e.data.object.id === o.id);
    expect(paidEvents).toHaveLength(1);
    expect(paidEvents[0].data.object).toMatchObject({ payment_status: 'paid', amount_due: 0 });
    expect((await eventsOf('order.completed')).some((e: any) => e.data.object.id === o.id)).toBe(true);

    // listed by order, method and day
    const byOrder = (await hub.api.get(`/v1/payments?order=${o.id}`)).body.data;
    expect(byOrder.map((p: any) => p.id)).toEqual([cash.body.id, card.body.id]);
    const cashOnly = (await hub.api.get(`/v1/payments?order=${o.id}&method=cash`)).body.data;
    expect(cashOnly.map((p: any) => p.id)).toEqual([cash.body.id]);
    const today = card.body.business_date;
    expect((await hub.api.get(`/v1/payments?date=${today}`)).body.data.length).toBeGreaterThanOrEqual(2);
    expect((await hub.api.get(`/v1/payments?date=2001-01-01`)).body.data).toEqual([]);
    expect((await hub.api.get(`/v1/payments/${card.body.id}`)).body).toEqual(card.body);
    expectError(await hub.api.get('/v1/payments/pay_nope'), 404, 'resource_missing');
  });

  it('splits evenly by amount; a refund on an open check puts the amount back on amount_due, on a completed one it is a return', async () => {
    const o = await placedCheck(menu.table2);
    const half = Math.floor(o.total / 2);
    const first = await hub.api.post(`/v1/orders/${o.id}/payments`, { method: 'card', amount: half });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ currency: o.currency });

    // a correction while the check is open: the money is owed again
    const refund = await hub.api.post(`/v1/payments/${first.body.id}/refund`, { amount: 500, reason: 'keyed twice' });
    expect(refund.status).toBe(200);
    // what is left to give back is the hub's figure (the refund sheet offers it as it is)
    expect(refund.body).toMatchObject({ id: first.body.id, status: 'partially_refunded', amount_refunded: 500, amount_refundable: half - 500 });
    expect(refund.body.refunds).toEqual([expect.objectContaining({ object: 'refund', amount: 500, reason: 'keyed twice', payment: first.body.id, is_return: false, currency: o.currency })]);
    expect((await hub.api.get(`/v1/orders/${o.id}`)).body).toMatchObject({ amount_paid: half - 500, amount_due: o.total - half + 500, payment_status: 'partially_paid' });
    const refunded = (await eventsOf('payment.refunded')).find((e: any) => e.data.object.id === first.body.id);
    expect(refunded.data.refund).toMatchObject({ amount: 500, reason: 'keyed twice' });

    // more than is left of the payment is refused, writing nothing
    const rows = await countRows(hub, 'payment_refunds');
    expectError(await hub.api.post(`/v1/payments/${first.body.id}/refund`, { amount: half }), 400, 'amount_too_large', 'amount');
    expect(await countRows(hub, 'payment_refunds')).toBe(rows);
    const second = await hub.api.post(`/v1/orders/${o.id}/payments`, { method: 'card', amount: o.total - half + 500 });
    expect(second.status).toBe(201);
    expect((await hub.api.get(`/v1/orders/${o.id}`)).body).toMatchObject({ status: 'completed', payment_status: 'paid', amount_due: 0 });

    // after the guests have gone, a refund is a return: the check stays completed and owes nothing
    const back = await hub.api.post(`/v1/payments/${second.body.id}/refund`, { amount: 850, reason: 'cold soup' });
    expect(back.body.refunds).toEqual([expect.objectContaining({ amount: 850, is_return: true })]);
    expect((await hub.api.get(`/v1/orders/${o.id}`)).body).toMatchObject({
      status: 'completed',
      amount_paid: o.total - 850,
      amount_returned: 850,
      amount_due: 0,
      payment_status: 'paid',
    });
    const rest = await hub.api.post(`/v1/payments/${first.body.id}/refund`, {});
    expect(rest.body).toMatchObject({ status: 'refunded', amount_refunded: half, amount_refundable: 0 });
    expectError(await hub.api.post(`/v1/payments/${first.body.id}/refund`, {}), 409, 'state_conflict');
    expect((await hub.api.get(`/v1/orders/${o.id}`)).body).toMatchObject({ amount_due: 0, amount_returned: 850 + half - 500 });
  });

  it('refunds need payments:manage; a draft order takes no payment; a sandbox key sees no live payment', async () => {
    const key = await hub.server.services.tx.run((trx) =>
      createApiKey(trx, hub.clock.now(), { restaurantId: hub.restaurant.id, kind: 'secret', livemode: true, scopes: ['payments:read', 'payments:write', 'orders:read'], grantedBy: 'operator' }),
    );
    const o = await placedCheck();
    const p = await hub.api.post(`/v1/orders/${o.id}/payments`, { method: 'card', amount: 100 }, { key: key.key });
    expect(p.status).toBe(201);
    expectError(await hub.api.post(`/v1/payments/${p.body.id}/refund`, {}, { key: key.key }), 403, 'insufficient_scope');
    expectError(await hub.api.get(`/v1/payments/${p.body.id}`, { key: hub.keys.sandbox }), 404, 'resource_missing');

    const draft = await hub.api.post('/v1/orders', { type: 'takeout', items: [{ menu_item: menu.water, quantity: 1 }] });
    expectError(await hub.api.post(`/v1/orders/${draft.body.id}/payments`, { method: 'cash', amount: 100 }), 409, 'order_not_open');
  });
});
