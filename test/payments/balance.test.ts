import { describe, expect, it } from 'vitest';
import { expectError } from '../helpers/assert.ts';
import { DIALECTS } from '../helpers/db.ts';
import { taxInclusiveVenue } from './fixture.ts';

/**
 * GET /v1/orders/{id}/balance (issue 39, "one balance, computed on the server"): what the
 * payment panel shows for seats and an even split comes from here, and a payment of exactly
 * what it shows is what the server records.
 */
describe.each(DIALECTS)('a check’s balance on %s', (dialect) => {
  const venue = taxInclusiveVenue(dialect, { Steak: 2850, Soup: 650, Coffee: 500 });
  const { item, sent, balance, pay } = venue;

  it('splits €5.00 two ways as two shares of the bill, not half of what is left each time (item 2)', async () => {
    const o = await sent([{ menu_item: item.Coffee, quantity: 1 }]);
    let b = await balance(o.id, '?split=2');
    expect(b.split.shares.map((s: any) => s.amount)).toEqual([250, 250]);
    expect(b.split.next).toMatchObject({ n: 1, due: 250 });
    await pay(o.id, { amount: b.split.next.due });
    b = await balance(o.id, '?split=2');
    // the second share is still €2.50 (it was €1.25 when the browser halved what was left)
    expect(b.split.shares).toEqual([
      { n: 1, amount: 250, paid: 250, due: 0 },
      { n: 2, amount: 250, paid: 0, due: 250 },
    ]);
    expect(b.split.next).toMatchObject({ n: 2, due: 250 });
    expect(b.amount_due).toBe(250);
    await pay(o.id, { amount: b.split.next.due });
    b = await balance(o.id, '?split=2');
    expect(b).toMatchObject({ amount_due: 0, payment_status: 'paid', split: { next: null } });
  });

  it('gives the last share the rounding, and a seat paid by its lines is taken off before the split', async () => {
    const o = await sent([
      { menu_item: item.Steak, quantity: 1, seat: 1 },
      { menu_item: item.Soup, quantity: 1, seat: 2 },
      { menu_item: item.Coffee, quantity: 1, seat: 3 },
    ]);
    let b = await balance(o.id, '?split=3');
    expect(b.total).toBe(4000);
    expect(b.split.shares.map((s: any) => s.amount)).toEqual([1333, 1333, 1334]);
    expect(b.seats.map((s: any) => [s.seat, s.net_amount, s.paid, s.due])).toEqual([
      [1, 2850, 0, 2850],
      [2, 650, 0, 650],
      [3, 500, 0, 500],
    ]);
    const order = (await venue.hub.api.get(`/v1/orders/${o.id}`)).body;
    expect(b.seats.map((s: any) => s.net_amount)).toEqual(order.seats.map((s: any) => s.net_amount));
    // seat 1 pays its lines: exactly the due the balance showed
    const p = await pay(o.id, { items: b.seats[0].unpaid_items });
    expect(p.amount).toBe(b.seats[0].due);
    b = await balance(o.id, '?split=2');
    expect(b.seats[0]).toMatchObject({ seat: 1, paid: 2850, due: 0, unpaid_items: [] });
    // what is left (11.50) is split: 5.75 each
    expect(b.split.shares.map((s: any) => [s.amount, s.due])).toEqual([
      [575, 575],
      [575, 575],
    ]);
    await pay(o.id, { amount: b.split.next.due });
    b = await balance(o.id, '?split=2');
    expect(b.split.shares.reduce((t: number, s: any) => t + s.due, 0)).toBe(b.amount_due);
    // seat 3's lines are not the last unpaid ones: paying it asks for their net amount
    expect(b.seats[2]).toMatchObject({ seat: 3, due: 500 });
    const p3 = await pay(o.id, { items: b.seats[2].unpaid_items });
    expect(p3.amount).toBe(500);
    // seat 2's lines are the last: paying them settles what is due, whatever was paid by amount
    b = await balance(o.id);
    expect(b.split).toBeNull();
    expect(b.seats[1].due).toBe(b.amount_due);
    expect(b.amount_due).toBe(4000 - 2850 - 575 - 500);
    const p2 = await pay(o.id, { items: b.seats[1].unpaid_items });
    expect(p2.amount).toBe(b.seats[1].due);
    b = await balance(o.id);
    expect(b).toMatchObject({ amount_due: 0, payment_status: 'paid' });
    // each seat's paid: the payments by its lines (seat 2's payment was 0.75 less than its lines)
    expect(b.seats.map((s: any) => s.paid)).toEqual([2850, 75, 500]);
  });

  it('puts a seat back on the bill when its payment is refunded whole, and counts a return off the split', async () => {
    const o = await sent([
      { menu_item: item.Soup, quantity: 1, seat: 1 },
      { menu_item: item.Coffee, quantity: 2, seat: 2 },
    ]);
    const b0 = await balance(o.id);
    const p = await pay(o.id, { items: b0.seats[0].unpaid_items });
    expect((await venue.hub.api.post(`/v1/payments/${p.id}/refund`, {})).status).toBe(200);
    const b1 = await balance(o.id, '?split=2');
    expect(b1.seats[0]).toMatchObject({ paid: 0, due: 650, unpaid_items: b0.seats[0].unpaid_items });
    expect(b1.split.shares.map((s: any) => s.amount)).toEqual([825, 825]);
    await pay(o.id, { amount: 825 });
    await pay(o.id, { amount: 825 });
    const done = await venue.hub.api.patch(`/v1/orders/${o.id}`, { status: 'completed' });
    expect(done.body, JSON.stringify(done.body)).toMatchObject({ status: 'completed', amount_due: 0 });
    const last = (await venue.hub.api.get(`/v1/payments?order=${o.id}`)).body.data[0];
    expect((await venue.hub.api.post(`/v1/payments/${last.id}/refund`, { amount: 100 })).status).toBe(200);
    const b2 = await balance(o.id, '?split=2');
    // a return lowers the bill and what was paid alike: the check owes nothing
    expect(b2).toMatchObject({ amount_returned: 100, amount_due: 0, amount_paid: 1550 });
    expect(b2.split.shares.map((s: any) => s.due)).toEqual([0, 0]);
  });

  it('says what paying a guest’s chosen lines records, and a payment of exactly that is what is recorded (the tablet sums nothing)', async () => {
    const o = await sent([{ menu_item: item.Steak, quantity: 1 }, { menu_item: item.Soup, quantity: 1 }, { menu_item: item.Coffee, quantity: 2 }]);
    const [steakLine, soupLine, coffeeLine] = o.items.map((l: any) => l.id);
    // a payment by amount first: the last unpaid lines then settle only what is still due
    await pay(o.id, { amount: 500 });
    const some = (await venue.hub.api.get(`/v1/orders/${o.id}/balance?items=${steakLine},${soupLine}`)).body;
    expect(some.items_charge).toEqual({ items: [steakLine, soupLine], item_shares: [], amount: 2850 + 650 });
    const p = await pay(o.id, { items: [steakLine, soupLine] });
    expect(p.amount).toBe(some.items_charge.amount);
    const last = (await venue.hub.api.get(`/v1/orders/${o.id}/balance?items=${coffeeLine}`)).body;
    // the coffees' €10.00 less the €5.00 paid by amount: the last lines settle what is due
    expect(last.items_charge.amount).toBe(500);
    expect(last.amount_due).toBe(500);
    expect((await balance(o.id)).items_charge).toBeNull();
    expectError(await venue.hub.api.get(`/v1/orders/${o.id}/balance?items=${steakLine}`), 409, 'state_conflict', 'items');
    expectError(await venue.hub.api.get(`/v1/orders/${o.id}/balance?items=oi_nope`), 400, 'parameter_invalid', 'items');
    expectError(await venue.hub.api.get(`/v1/orders/${o.id}/balance?items=`), 400, undefined, 'items');
  });

  it('refuses a bad split or an unknown order in the one error shape', async () => {
    const o = await sent([{ menu_item: item.Coffee, quantity: 1 }]);
    for (const bad of ['1', '21', 'two', '2.5', '']) expectError(await venue.hub.api.get(`/v1/orders/${o.id}/balance?split=${bad}`), 400, undefined, 'split');
    expectError(await venue.hub.api.get('/v1/orders/ord_nope/balance'), 404, 'resource_missing');
    // a sandbox key does not see a live order
    expectError(await venue.hub.api.withKey(venue.hub.keys.sandbox).get(`/v1/orders/${o.id}/balance`), 404, 'resource_missing');
  });
});
