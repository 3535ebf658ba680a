import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { seedMenu, type Menu } from '../orders/fixtures.ts';
import { addPrinter, drain, PrinterEmulator } from './fixtures.ts';

/**
 * "Print receipt" then "Mark completed" (the order page's two buttons, the same API calls)
 * gives the guest one receipt, on a printer emulated over TCP; a receipt that no longer tells
 * the truth (a payment taken since) prints anew at completion, and an explicit reprint prints.
 */
describe.each(DIALECTS)('one receipt per check on %s', (dialect) => {
  let hub: TestHub;
  let menu: Menu;
  let front: PrinterEmulator;

  beforeAll(async () => {
    hub = await startHub(dialect);
    menu = await seedMenu(hub);
    front = await PrinterEmulator.start();
    await addPrinter(hub, front, { name: 'Front', prints_receipts: true });
  });
  afterAll(async () => {
    await hub?.close();
    await front?.close();
  });

  async function servedCheck(table: string) {
    const created = await hub.api.post('/v1/orders', { type: 'dine_in', table, items: [{ menu_item: menu.pasta, quantity: 1 }, { menu_item: menu.water, quantity: 2 }] });
    expect(created.status).toBe(201);
    for (const status of ['placed', 'served']) expect((await hub.api.patch(`/v1/orders/${created.body.id}`, { status })).status).toBe(200);
    await drain(hub);
    return created.body.id as string;
  }
  const receiptsFor = (order: string) => front.texts().filter((t) => t.includes(`Order #`) && t.includes('TOTAL') && t.includes(order));

  it('prints once when the receipt was printed just before completing', async () => {
    const id = await servedCheck(menu.table);
    const number = (await hub.api.get(`/v1/orders/${id}`)).body.order_number;
    const before = front.prints().length;
    expect((await hub.api.post(`/v1/orders/${id}/receipt`, {})).status).toBe(201);
    await drain(hub);
    hub.clock.advance(60_000); // a minute later: the time on a new receipt would differ
    const done = await hub.api.patch(`/v1/orders/${id}`, { status: 'completed' });
    expect(done.body.status).toBe('completed');
    await drain(hub);
    expect(front.prints().length).toBe(before + 1);
    expect(receiptsFor(`#${number}`)).toHaveLength(1);
    // asked for again, it prints again
    expect((await hub.api.post(`/v1/orders/${id}/receipt`, {})).status).toBe(201);
    await drain(hub);
    expect(front.prints().length).toBe(before + 2);
  });

  it('prints at completion when the earlier receipt is out of date', async () => {
    const id = await servedCheck(menu.table2);
    const before = front.prints().length;
    expect((await hub.api.post(`/v1/orders/${id}/receipt`, {})).status).toBe(201);
    await drain(hub);
    // paid in cash after the bill was printed: the final receipt shows the payment
    const order = (await hub.api.get(`/v1/orders/${id}`)).body;
    const paid = await hub.api.post(`/v1/orders/${id}/payments`, { method: 'cash', amount: order.total });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    const now = (await hub.api.get(`/v1/orders/${id}`)).body;
    if (now.status !== 'completed') expect((await hub.api.patch(`/v1/orders/${id}`, { status: 'completed' })).status).toBe(200);
    await drain(hub);
    expect(front.prints().length).toBe(before + 2);
    expect(front.texts().at(-1)).toContain('Cash');
  });

  it('prints at completion when no receipt was asked for', async () => {
    const id = await servedCheck(menu.table);
    const before = front.prints().length;
    expect((await hub.api.patch(`/v1/orders/${id}`, { status: 'completed' })).status).toBe(200);
    await drain(hub);
    expect(front.prints().length).toBe(before + 1);
  });
});
