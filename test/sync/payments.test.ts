import { afterEach, describe, expect, it } from 'vitest';
import { seedMenu } from '../orders/fixtures.ts';
import { converged, goOffline, goOnline, startPair, type Pair } from './helpers.ts';

/**
 * Payments through an outage: taken on the hub while the line is down they reach the cloud
 * once; the same check paid on both sides while apart keeps both payments and is listed as
 * an overpayment until a refund settles it.
 */
describe('cloud sync: payments', () => {
  let p: Pair | undefined;
  afterEach(async () => {
    await p?.close();
    p = undefined;
  });

  it('a payment taken on the hub during an outage reaches the cloud once; a check paid on both sides is kept and listed', async () => {
    const pair = (p = await startPair());
    const menu = await seedMenu(pair.hub);
    const newCheck = async (table: string) => {
      const o = (await pair.hub.api.post('/v1/orders', { type: 'dine_in', table, items: [{ menu_item: menu.pasta, quantity: 2 }] })).body;
      return (await pair.hub.api.patch(`/v1/orders/${o.id}`, { status: 'placed' })).body;
    };
    const one = await newCheck(menu.table);
    const two = await newCheck(menu.table2);
    await pair.link();
    expect((await converged(pair)).ok).toBe(true);
    await goOffline(pair.hub);

    // the line is down: the hub takes table 1's bill, retried by the till with its key
    pair.hub.clock.advance(1000);
    const body = { method: 'card', items: one.items.map((l: any) => l.id), tip_amount: 250 };
    const headers = { 'Idempotency-Key': 'till-1' };
    const atHub = await pair.hub.api.post(`/v1/orders/${one.id}/payments`, body, { headers });
    expect(atHub.status).toBe(201);
    expect((await pair.hub.api.post(`/v1/orders/${one.id}/payments`, body, { headers })).body.id).toBe(atHub.body.id);
    // table 2 is paid at the hub's till and, apart from it, through the cloud (an online payment)
    const hubPay = await pair.hub.api.post(`/v1/orders/${two.id}/payments`, { method: 'cash', amount: two.total });
    pair.cloud.clock.advance(1000);
    const cloudPay = await pair.cloudApi.post(`/v1/orders/${two.id}/payments`, { method: 'card', amount: two.total });
    expect([hubPay.status, cloudPay.status]).toEqual([201, 201]);

    goOnline(pair.hub);
    const { ok, report } = await converged(pair);
    expect(report?.differences).toEqual([]);
    expect(ok).toBe(true);

    for (const api of [pair.hub.api, pair.cloudApi]) {
      const paidOne = (await api.get(`/v1/payments?order=${one.id}`)).body.data;
      expect(paidOne.map((x: any) => x.id)).toEqual([atHub.body.id]);
      expect((await api.get(`/v1/orders/${one.id}`)).body).toMatchObject({ payment_status: 'paid', status: 'completed', amount_due: 0 });
      expect((await api.get('/v1/events?type=payment.succeeded&limit=100')).body.data.filter((e: any) => e.data.object.id === atHub.body.id)).toHaveLength(1);
      // both payments of table 2 are kept, and amount_paid counts both on each side
      const paidTwo = (await api.get(`/v1/payments?order=${two.id}`)).body.data;
      expect(paidTwo.map((x: any) => x.id).sort()).toEqual([hubPay.body.id, cloudPay.body.id].sort());
      expect((await api.get(`/v1/orders/${two.id}`)).body).toMatchObject({ amount_paid: 2 * two.total, amount_due: 0, payment_status: 'paid' });
      const conflict = (await api.get('/v1/sync/status')).body.conflicts.find((c: any) => c.kind === 'overpayment');
      expect(conflict).toMatchObject({ table: 'orders', row_ids: [two.id], detail: { total: two.total, amount_paid: 2 * two.total } });
      expect(conflict.detail.payments.sort()).toEqual([hubPay.body.id, cloudPay.body.id].sort());
    }

    // the manager refunds the card payment taken on the cloud: the overpayment settles itself on both sides
    expect((await pair.hub.api.post(`/v1/payments/${cloudPay.body.id}/refund`, { reason: 'paid twice' })).status).toBe(200);
    expect((await converged(pair)).ok).toBe(true);
    for (const api of [pair.hub.api, pair.cloudApi]) {
      expect((await api.get(`/v1/orders/${two.id}`)).body).toMatchObject({ amount_paid: two.total, amount_due: 0, payment_status: 'paid' });
      expect((await api.get('/v1/sync/status')).body.conflicts.some((c: any) => c.kind === 'overpayment')).toBe(false);
    }
  });

  it('a share of a line taken on the hub reaches the cloud as that share, and the cloud takes the next one', async () => {
    const pair = (p = await startPair());
    const menu = await seedMenu(pair.hub);
    const o = (await pair.hub.api.post('/v1/orders', { type: 'takeout', status: 'placed', items: [{ menu_item: menu.pasta, quantity: 2 }, { menu_item: menu.water, quantity: 1 }] })).body;
    const line = o.items[0];
    await pair.link();
    expect((await converged(pair)).ok).toBe(true);
    await goOffline(pair.hub);
    pair.hub.clock.advance(1000);
    const first = await pair.hub.api.post(`/v1/orders/${o.id}/payments`, { method: 'cash', item_shares: [{ item: line.id, parts: 2 }] });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    goOnline(pair.hub);
    expect((await converged(pair)).ok).toBe(true);
    // the cloud has the payment with its share, and so the line's split: the next share is its
    const atCloud = (await pair.cloudApi.get(`/v1/payments/${first.body.id}`)).body;
    expect(atCloud.item_shares).toEqual([{ item: line.id, parts: 2, part: 1, amount: first.body.amount }]);
    pair.cloud.clock.advance(1000);
    const second = await pair.cloudApi.post(`/v1/orders/${o.id}/payments`, { method: 'card', item_shares: [{ item: line.id, parts: 2 }] });
    expect(second.body.item_shares, JSON.stringify(second.body)).toEqual([{ item: line.id, parts: 2, part: 2, amount: line.net_amount - first.body.amount }]);
    expect((await converged(pair)).ok).toBe(true);
    for (const api of [pair.hub.api, pair.cloudApi]) {
      const b = (await api.get(`/v1/orders/${o.id}/balance`)).body;
      expect(b.split_items).toEqual([expect.objectContaining({ item: line.id, parts: 2, paid: line.net_amount, left: 0, next: null })]);
      expect(b.amount_due).toBe(o.total - line.net_amount);
    }
  });
});
