import { describe, expect, it } from 'vitest';
import { expectError } from '../helpers/assert.ts';
import { DIALECTS } from '../helpers/db.ts';
import { taxInclusiveVenue } from './fixture.ts';

/**
 * One line split between guests (issue 39, "one item split in N"): a €60 bottle shared by three
 * is paid one equal share at a time, each share's amount is the server's, the shares add up to
 * the line exactly, and refunds, voids and the rest of the bill keep tying out.
 */
describe.each(DIALECTS)('a line paid in equal shares on %s', (dialect) => {
  const venue = taxInclusiveVenue(dialect, { Barolo: 6000, 'Water carafe': 1000, Steak: 2850 });
  const { item, sent, balance, pay } = venue;

  it('splits a €60 bottle three ways: €20 each, the balance naming every share, the line paid at the third', async () => {
    const o = await sent([
      { menu_item: item.Barolo, quantity: 1 },
      { menu_item: item.Steak, quantity: 1, seat: 1 },
    ]);
    const [bottle, steakLine] = o.items.map((l: any) => l.id);
    let b = await balance(o.id, `?items=${bottle}:3`);
    expect(b.items_charge).toEqual({ items: [], item_shares: [{ item: bottle, parts: 3, part: 1, amount: 2000 }], amount: 2000 });
    expect(b.split_items).toEqual([
      {
        item: bottle,
        parts: 3,
        net_amount: 6000,
        paid: 0,
        left: 6000,
        shares: [1, 2, 3].map((part) => ({ part, amount: 2000, paid: false })),
        next: { part: 1, amount: 2000 },
      },
    ]);
    // asking is not paying: nothing is split until a share is paid
    expect((await balance(o.id)).split_items).toEqual([]);
    const p1 = await pay(o.id, { item_shares: [{ item: bottle, parts: 3 }] });
    expect(p1).toMatchObject({ amount: 2000, items: [], item_shares: [{ item: bottle, parts: 3, part: 1, amount: 2000 }] });
    b = await balance(o.id);
    expect(b.split_items[0]).toMatchObject({ paid: 2000, left: 4000, next: { part: 2, amount: 2000 } });
    expect(b.amount_due).toBe(8850 - 2000);
    // the bottle is paid by its shares, not with a seat: no seat lists it
    expect(b.seats.flatMap((s: any) => s.unpaid_items)).toEqual([steakLine]);
    // the steak first (not the last unpaid line: its net amount), then the bottle's last two shares
    expect((await pay(o.id, { items: [steakLine] })).amount).toBe(2850);
    expect((await pay(o.id, { item_shares: [{ item: bottle, parts: 3 }] })).item_shares[0]).toMatchObject({ part: 2, amount: 2000 });
    b = await balance(o.id, `?items=${bottle}:3`);
    // the last share of the last unpaid line settles what is due
    expect(b.items_charge).toMatchObject({ amount: 2000, item_shares: [{ part: 3, amount: 2000 }] });
    const p3 = await pay(o.id, { item_shares: [{ item: bottle, parts: 3 }] });
    expect(p3.amount).toBe(2000);
    b = await balance(o.id);
    expect(b).toMatchObject({ amount_due: 0, payment_status: 'paid' });
    expect(b.split_items[0]).toMatchObject({ paid: 6000, left: 0, next: null });
    expect(b.split_items[0].shares.every((s: any) => s.paid)).toBe(true);
    expectError(await venue.hub.api.post(`/v1/orders/${o.id}/payments`, { method: 'card', item_shares: [{ item: bottle, parts: 3 }] }), 409, 'state_conflict');
  });

  it('gives €10.00 in three as 3.33, 3.33 and 3.34: the shares add up to the line exactly', async () => {
    const o = await sent([{ menu_item: item['Water carafe'], quantity: 1 }, { menu_item: item.Steak, quantity: 1 }]);
    const carafe = o.items[0].id;
    const b = await balance(o.id, `?items=${carafe}:3`);
    expect(b.split_items[0].shares.map((s: any) => s.amount)).toEqual([333, 333, 334]);
    const paid = [];
    for (let i = 0; i < 3; i++) paid.push((await pay(o.id, { method: 'cash', item_shares: [{ item: carafe, parts: 3 }] })).amount);
    expect(paid).toEqual([333, 333, 334]);
    expect(paid.reduce((s, x) => s + x, 0)).toBe(1000);
    const after = await balance(o.id);
    expect(after.amount_due).toBe(2850);
    // the steak alone is left: paying it settles the check
    expect(after.seats[0]).toMatchObject({ unpaid_items: [o.items[1].id], due: 2850 });
  });

  it('pays a line whole and a share of another in one payment, and keeps a line in its number of parts', async () => {
    const o = await sent([{ menu_item: item.Barolo, quantity: 1 }, { menu_item: item.Steak, quantity: 1 }, { menu_item: item['Water carafe'], quantity: 1 }]);
    const [bottle, steakLine, carafe] = o.items.map((l: any) => l.id);
    const asked = await balance(o.id, `?items=${steakLine},${bottle}:4`);
    expect(asked.items_charge).toEqual({ items: [steakLine], item_shares: [{ item: bottle, parts: 4, part: 1, amount: 1500 }], amount: 4350 });
    const p = await pay(o.id, { items: [steakLine], item_shares: [{ item: bottle, parts: 4 }] });
    expect(p).toMatchObject({ amount: 4350, items: [steakLine], item_shares: [{ item: bottle, parts: 4, part: 1, amount: 1500 }] });
    const b = await balance(o.id);
    // the seat's paid: the payment spread over what it paid for (the steak whole, a quarter of the bottle)
    expect(b.seats[0].paid).toBe(4350);
    // another number of parts, the bottle whole, a line twice, a share and an amount: refused, nothing written
    expectError(await venue.hub.api.post(`/v1/orders/${o.id}/payments`, { method: 'card', item_shares: [{ item: bottle, parts: 3 }] }), 409, 'state_conflict', 'item_shares');
    expectError(await venue.hub.api.get(`/v1/orders/${o.id}/balance?items=${bottle}:2`), 409, 'state_conflict', 'item_shares');
    expectError(await venue.hub.api.post(`/v1/orders/${o.id}/payments`, { method: 'card', items: [bottle] }), 409, 'state_conflict', 'items');
    expectError(await venue.hub.api.post(`/v1/orders/${o.id}/payments`, { method: 'card', items: [carafe], item_shares: [{ item: carafe, parts: 2 }] }), 400, 'parameter_invalid');
    expectError(await venue.hub.api.post(`/v1/orders/${o.id}/payments`, { method: 'card', amount: 100, item_shares: [{ item: carafe, parts: 2 }] }), 400, 'parameter_invalid');
    expectError(await venue.hub.api.post(`/v1/orders/${o.id}/payments`, { method: 'card', item_shares: [{ item: 'oi_nope', parts: 2 }] }), 400, 'parameter_invalid', 'item_shares');
    for (const parts of [1, 21, 2.5]) expectError(await venue.hub.api.post(`/v1/orders/${o.id}/payments`, { method: 'card', item_shares: [{ item: carafe, parts }] }), 400, undefined);
    for (const q of [`${carafe}:1`, `${carafe}:99`, `${carafe}:x`]) {
      const r = await venue.hub.api.get(`/v1/orders/${o.id}/balance?items=${q}`);
      expectError(r, 400, 'parameter_invalid');
      expect(r.body.error.param).toMatch(/^items/);
    }
    expect((await venue.hub.api.get(`/v1/payments?order=${o.id}`)).body.data).toHaveLength(1);
    expect((await balance(o.id)).amount_due).toBe(9850 - 4350);
  });

  it('owes a share again when its payment is refunded whole; a part refund keeps it paid', async () => {
    const o = await sent([{ menu_item: item.Barolo, quantity: 1 }, { menu_item: item.Steak, quantity: 1 }]);
    const bottle = o.items[0].id;
    const p1 = await pay(o.id, { item_shares: [{ item: bottle, parts: 3 }] });
    const p2 = await pay(o.id, { item_shares: [{ item: bottle, parts: 3 }] });
    expect((await venue.hub.api.post(`/v1/payments/${p1.id}/refund`, {})).status).toBe(200);
    let b = await balance(o.id);
    expect(b.split_items[0]).toMatchObject({ paid: 2000, left: 4000, next: { part: 1, amount: 2000 } });
    expect(b.split_items[0].shares.map((s: any) => s.paid)).toEqual([false, true, false]);
    expect(b.amount_due).toBe(8850 - 2000);
    // share 1 is paid again, then 3
    expect((await pay(o.id, { item_shares: [{ item: bottle, parts: 3 }] })).item_shares[0].part).toBe(1);
    expect((await venue.hub.api.post(`/v1/payments/${p2.id}/refund`, { amount: 500 })).status).toBe(200);
    b = await balance(o.id);
    expect(b.split_items[0]).toMatchObject({ paid: 4000, next: { part: 3 } });
    expect(b.amount_due).toBe(8850 - 2000 - 1500);
    // once the bottle's shares are refunded whole it is no longer split: it may be split another way
    for (const p of (await venue.hub.api.get(`/v1/payments?order=${o.id}`)).body.data) {
      if (p.amount_refunded < p.amount) expect((await venue.hub.api.post(`/v1/payments/${p.id}/refund`, {})).status).toBe(200);
    }
    b = await balance(o.id, `?items=${bottle}:2`);
    expect(b.split_items).toEqual([expect.objectContaining({ parts: 2, paid: 0 })]);
    expect(b.amount_due).toBe(8850);
  });

  it('voids a partly paid line as a paid one: only while the check still covers what was paid; a voided line takes no share', async () => {
    const o = await sent([{ menu_item: item.Barolo, quantity: 1 }, { menu_item: item['Water carafe'], quantity: 1 }]);
    const [bottle, carafe] = o.items.map((l: any) => l.id);
    await pay(o.id, { item_shares: [{ item: bottle, parts: 2 }] });
    await pay(o.id, { items: [carafe] });
    // 7000 − 6000 would leave 1000 against 4000 paid: refused, as for a paid line
    expectError(await venue.hub.api.post(`/v1/orders/${o.id}/items/0/void`, { reason: 'corked' }), 409, 'state_conflict');
    const w2 = (await venue.hub.api.post(`/v1/orders/${o.id}/items`, { items: [{ menu_item: item.Barolo, quantity: 1 }] })).body;
    const second = w2.items.find((l: any) => l.id !== bottle && l.id !== carafe && l.name === 'Barolo').id;
    await pay(o.id, { item_shares: [{ item: second, parts: 3 }] });
    // the first bottle is corked: voided, the check (7000) still covers the 6000 paid
    const v = await venue.hub.api.post(`/v1/orders/${o.id}/items/0/void`, { reason: 'corked' });
    expect(v.status, JSON.stringify(v.body)).toBe(200);
    expectError(await venue.hub.api.post(`/v1/orders/${o.id}/payments`, { method: 'card', item_shares: [{ item: bottle, parts: 2 }] }), 409, 'state_conflict', 'item_shares');
    const b = await balance(o.id);
    expect(b.amount_due).toBe(7000 - 3000 - 1000 - 2000);
    // the corked bottle's share was paid: the check owes less than the second bottle's next share, which is refused as a seat would be
    expect(b.split_items.find((l: any) => l.item === second)).toMatchObject({ left: 4000, next: { part: 2, amount: 2000 } });
    expectError(await venue.hub.api.post(`/v1/orders/${o.id}/payments`, { method: 'card', item_shares: [{ item: second, parts: 3 }] }), 400, 'amount_too_large', 'item_shares');
    expect((await pay(o.id, { amount: b.amount_due })).amount).toBe(1000);
    expect(await balance(o.id)).toMatchObject({ amount_due: 0, payment_status: 'paid' });
  });
});
