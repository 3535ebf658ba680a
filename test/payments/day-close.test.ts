import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/assert.ts';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { seedMenu, type Menu } from '../orders/fixtures.ts';
import { addPrinter, addServer, drain, PrinterEmulator } from '../printers/fixtures.ts';

const DRAWER_PULSE = Buffer.from([0x1b, 0x70, 0x00, 0x19, 0xfa]);

describe.each(DIALECTS)('the day close on %s', (dialect) => {
  let hub: TestHub;
  let menu: Menu;
  let emu: PrinterEmulator;
  let ada: string;
  beforeAll(async () => {
    hub = await startHub(dialect);
    menu = await seedMenu(hub);
    emu = await PrinterEmulator.start();
    const printer = await addPrinter(hub, emu, { name: 'Till', prints_receipts: true });
    expect((await hub.api.patch(`/v1/printers/${printer.id}`, { cash_drawer: true })).body.cash_drawer).toBe(true);
    ada = await addServer(hub, 'Ada');
  });
  afterAll(async () => {
    await hub?.close();
    await emu?.close();
  });

  async function check(items: { menu_item: string; quantity: number }[], table: string | null = menu.table) {
    const o = await hub.api.post('/v1/orders', { type: table ? 'dine_in' : 'takeout', table, server: ada, items });
    return (await hub.api.patch(`/v1/orders/${o.body.id}`, { status: 'placed' })).body;
  }
  const pay = async (id: string, body: object) => {
    const r = await hub.api.post(`/v1/orders/${id}/payments`, body);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body;
  };

  it('adds up payments, refunds, tips, sales, open checks and the drawer, and prints the Z report', async () => {
    const a = await check([{ menu_item: menu.pasta, quantity: 1 }, { menu_item: menu.water, quantity: 1 }]);
    const card = await pay(a.id, { method: 'card', items: [a.items[0].id], tip_amount: 200 });
    const before = emu.prints().length;
    const cash = await pay(a.id, { method: 'cash', items: [a.items[1].id], tendered_amount: 1000, tip_amount: 100 });
    expect(cash.change_amount).toBe(1000 - cash.amount - 100);
    await drain(hub);
    // the paid check completed: its receipt shows the payments, the tip and the change; the drawer opened for the cash
    const printed = emu.prints().slice(before);
    expect(printed.some((b) => b.equals(DRAWER_PULSE))).toBe(true);
    const receiptText = printed.map((b) => b.toString('latin1')).find((t) => t.includes('Thank you'))!;
    expect(receiptText).toMatch(/Card/);
    expect(receiptText).toMatch(/Tendered/);
    expect(receiptText).toMatch(/Change/);
    expect(receiptText).toMatch(/PAID/);

    const b = await check([{ menu_item: menu.pasta, quantity: 1 }], null);
    const bPaid = await pay(b.id, { method: 'card', amount: b.total });
    // takeouts are handed over and completed by the counter (a paid takeout stays open until then)
    expect((await hub.api.get(`/v1/orders/${b.id}`)).body).toMatchObject({ status: 'placed', payment_status: 'paid' });
    await hub.api.patch(`/v1/orders/${b.id}`, { status: 'completed' });
    await hub.api.post(`/v1/payments/${bPaid.id}/refund`, { amount: 300, reason: 'overcooked' });
    // a cash refund comes out of the drawer
    const c = await check([{ menu_item: menu.water, quantity: 3 }], null);
    const cPaid = await pay(c.id, { method: 'cash', amount: c.total });
    await hub.api.patch(`/v1/orders/${c.id}`, { status: 'completed' });
    await hub.api.post(`/v1/payments/${cPaid.id}/refund`, { amount: 100 });
    // still open at the second table, part paid
    const placed = await check([{ menu_item: menu.pasta, quantity: 2 }, { menu_item: menu.water, quantity: 1 }], menu.table2);
    // the water is taken back: a void, billed nowhere, counted among the day's voids
    const voided = await hub.api.post(`/v1/orders/${placed.id}/items/1/void`, { reason: 'ordered twice' });
    expect(voided.status, JSON.stringify(voided.body)).toBe(200);
    const open = (await hub.api.get(`/v1/orders/${placed.id}`)).body;
    expect(open.total).toBeLessThan(placed.total);
    await pay(open.id, { method: 'other', amount: 500 });

    const date = card.business_date;
    const close = (await hub.api.get(`/v1/reports/day_close?date=${date}`)).body;
    const byMethod = Object.fromEntries(close.by_method.map((m: any) => [m.method, m]));
    expect(byMethod.card).toEqual({ method: 'card', count: 2, amount: card.amount + b.total - 300, tip_amount: 200, refunded_amount: 300 });
    expect(byMethod.cash).toEqual({ method: 'cash', count: 2, amount: cash.amount + c.total - 100, tip_amount: 100, refunded_amount: 100 });
    expect(byMethod.other).toMatchObject({ count: 1, amount: 500, tip_amount: 0 });
    expect(close.payments).toEqual({ count: 5, taken: card.amount + cash.amount + b.total + c.total + 500, refunded: 400, net: byMethod.card.amount + byMethod.cash.amount + 500 });
    expect(close.total_tips).toBe(300);
    expect(close.tips_by_server).toEqual([{ server: ada, name: 'Ada', count: 5, tip_amount: 300 }]);
    // both refunds were given on completed checks: returns, and the checks owe nothing for them
    expect(close.refunds).toEqual({ count: 2, amount: 400, returns: { count: 2, amount: 400 } });
    expect(close.sales.orders).toBe(4);
    expect(close.sales.total).toBe(a.total + b.total + c.total + open.total);
    expect(close.sales.by_tax_rate.map((r: any) => r.rate)).toEqual([0.07, 0.19]);
    expect(close.sales.by_tax_rate.reduce((s: number, r: any) => s + r.tax, 0)).toBe(close.sales.tax);
    expect(close.sales.by_tax_rate.reduce((s: number, r: any) => s + r.base, 0)).toBe(close.sales.net);
    expect(close.sales.gross - close.sales.discounts - close.sales.comps).toBe(close.sales.net);
    expect(close.sales.net_excl_tax + close.sales.tax + close.sales.delivery_fees + close.sales.order_tips).toBe(close.sales.total);
    expect(close.sales).toMatchObject({ refunds: 400, net_after_returns: close.sales.total - 400 });
    expect(close.open_orders).toEqual({ count: 1, amount_due: open.total - 500, orders: [expect.objectContaining({ id: open.id, amount_due: open.total - 500 })] });
    expect(close.voids).toEqual({ count: 1, amount: placed.items[1].unit_price * placed.items[1].quantity });
    const expected = cash.amount + 100 + c.total - 100;
    expect(close.cash).toEqual({ opening_float: 0, sales: cash.amount + c.total - 100, tips: 100, paid_in: 0, paid_out: 0, expected, counted: null, over_short: null, counted_at: null });

    // the drawer is counted 50 short
    const count = await hub.api.post('/v1/cash_counts', { date, counted_amount: expected - 50, note: 'evening' });
    expect(count.status).toBe(201);
    expect(count.body).toMatchObject({ object: 'cash_count', date, counted_amount: expected - 50, note: 'evening' });
    const counted = (await hub.api.get(`/v1/reports/day_close?date=${date}`)).body;
    expect(counted.cash).toMatchObject({ expected, counted: expected - 50, over_short: -50 });
    expect((await hub.api.get(`/v1/cash_counts?date=${date}`)).body.data.map((x: any) => x.id)).toEqual([count.body.id]);

    // analytics: the payment mix and tips by server over a range of days
    const mix = (await hub.api.get(`/v1/analytics/payments?start_date=${date}&end_date=${date}`)).body;
    expect(mix.total_amount).toBe(close.payments.net);
    expect(mix.by_method.find((m: any) => m.method === 'card')).toMatchObject({ count: 2, amount: byMethod.card.amount, tip_amount: 200 });
    expect(mix.by_method.reduce((s: number, m: any) => s + m.share, 0)).toBeCloseTo(1, 2);
    expect(mix.tips_by_server).toEqual([{ user: ada, user_name: 'Ada', payments: 5, tip_amount: 300 }]);

    // another day has nothing
    const empty = (await hub.api.get('/v1/reports/day_close?date=2001-01-01')).body;
    expect(empty).toMatchObject({ payments: { net: 0 }, total_tips: 0, open_orders: { count: 0 }, cash: { expected: 0 } });
    expectError(await hub.api.get('/v1/reports/day_close'), 400, 'parameter_missing', 'date');
    expectError(await hub.api.get('/v1/reports/day_close?date=2026-02-30'), 400, 'parameter_invalid', 'date');

    // the Z report on the receipt printer
    const printedBefore = emu.prints().length;
    const z = await hub.api.post('/v1/reports/day_close/print', { date });
    expect(z.status).toBe(201);
    expect(z.body.data[0]).toMatchObject({ kind: 'z_report' });
    await drain(hub);
    const zText = emu.texts().slice(printedBefore).find((t) => t.includes('Z REPORT'))!;
    expect(zText).toContain(date);
    expect(zText).toMatch(/Short/);
    expect(zText).toMatch(/Open checks \(1\)/);
  });
});
