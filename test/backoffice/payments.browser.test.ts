import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrinterEmulator } from '../../printers/emulator.ts';
import { updateRecord } from '../../server/db/records.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { seedMenu, type Menu } from '../orders/fixtures.ts';
import { drain } from '../printers/fixtures.ts';
import { checkPage, launch, OWNER, setUpVenue, IN_BROWSER } from './browser.ts';

/**
 * Taking payment at a tablet (800×1280) in Chromium against a real hub, through the UI only:
 * seat 1 pays its lines by card with a tip, an overpayment is refused, seat 2 pays cash with
 * change, the check is paid and its table free, a refund puts the amount back on the bill,
 * and the day's close adds it up and prints the Z report on an emulated receipt printer.
 */
describe('payments in the browser at a tablet viewport', IN_BROWSER, () => {
  let hub: TestHub;
  let menu: Menu;
  let emu: PrinterEmulator;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    hub = await startHub('sqlite');
    emu = await PrinterEmulator.start();
    await setUpVenue(hub.url, 'Osteria Test');
    menu = await seedMenu(hub);
    const printer = await hub.api.post('/v1/printers', { name: 'Till', transport: { type: 'tcp', host: emu.host, port: emu.port }, prints_receipts: true, cash_drawer: true });
    expect(printer.status).toBe(201);
    browser = await launch();
    const context = await browser.newContext({ viewport: { width: 800, height: 1280 }, locale: 'en-GB', hasTouch: true });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(`${hub.url}/app/login`);
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((u) => !u.pathname.endsWith('/login'));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await emu?.close();
    await hub?.close();
  });

  const dueText = () => page.getByTestId('amount-due').textContent();
  const dialog = () => page.locator('dialog[open]');

  it('seat 1 by card with a tip, an overpayment refused, seat 2 in cash with change, a refund, then the close', async () => {
    const created = await hub.api.post('/v1/orders', {
      type: 'dine_in',
      table: menu.table,
      items: [
        { menu_item: menu.pasta, quantity: 1, seat: 1 },
        { menu_item: menu.water, quantity: 1, seat: 1 },
        { menu_item: menu.pasta, quantity: 1, seat: 2, modifiers: ['Parmesan'] },
      ],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    expect((await hub.api.patch(`/v1/orders/${id}`, { status: 'placed' })).status).toBe(200);
    // another check stays open at the second table: the close warns about it
    const other = await hub.api.post('/v1/orders', { type: 'dine_in', table: menu.table2, items: [{ menu_item: menu.water, quantity: 1 }] });
    await hub.api.patch(`/v1/orders/${other.body.id}`, { status: 'placed' });

    await page.goto(`${hub.url}/app/orders/${id}`);
    await page.getByRole('heading', { level: 2, name: /^Payment\b/ }).first().waitFor();
    await checkPage(page, 'payments-order-unpaid');
    // every amount on the panel is the API's: each line's net amount, each seat's total, the check's total
    const shown = (await hub.api.get(`/v1/orders/${id}`)).body;
    const euros = (n: number) => (n / 100).toFixed(2);
    for (const l of shown.items) await expect.poll(() => page.locator(`.payment-panel [data-line="${l.id}"] [data-testid="line-net"]`).textContent()).toContain(euros(l.net_amount));
    const seatTotals = await page.getByTestId('seat-total').allTextContents();
    expect(seatTotals.map((x) => x.replace(/[^\d.]/g, ''))).toEqual(shown.seats.map((x: any) => euros(x.net_amount)));
    await expect.poll(() => page.getByTestId('order-total').textContent()).toContain(euros(shown.total));

    // seat 1, by card, with a 2.00 tip: the dialog shows the seat's total, and records exactly that
    await page.getByRole('button', { name: 'Pay seat 1' }).click();
    await expect.poll(() => dialog().getByTestId('pay-amount').textContent()).toContain(euros(shown.seats[0].net_amount));
    await dialog().getByLabel('Card').check();
    await dialog().getByLabel('Tip').fill('2.00');
    await dialog().getByLabel('Slip or last 4 digits').fill('4242');
    await checkPage(page, 'payments-card-dialog');
    await dialog().getByRole('button', { name: /^Record/ }).click();
    await page.locator('[data-payment]').first().waitFor();
    let order = (await hub.api.get(`/v1/orders/${id}`)).body;
    expect(order.payment_status).toBe('partially_paid');
    expect((await hub.api.get(`/v1/payments?order=${id}`)).body.data[0].amount).toBe(shown.seats[0].net_amount);
    await expect.poll(dueText).toContain((order.amount_due / 100).toFixed(2));

    // more than is due is refused, and nothing is recorded
    await page.getByRole('button', { name: 'Pay the rest' }).click();
    await dialog().getByLabel('Amount').fill('999.00');
    await dialog().getByRole('button', { name: /^Record/ }).click();
    await dialog().getByRole('alert').filter({ hasText: 'more than the order still owes' }).waitFor();
    await checkPage(page, 'payments-overpayment-refused');
    await dialog().getByRole('button', { name: 'Back' }).click();
    expect((await hub.api.get(`/v1/payments?order=${id}`)).body.data).toHaveLength(1);

    // seat 2, in cash: 50.00 given, the change shown
    await page.getByRole('button', { name: 'Pay seat 2' }).click();
    await dialog().getByLabel('Cash', { exact: true }).check();
    await dialog().getByLabel('Cash given').fill('50');
    await dialog().getByRole('status').filter({ hasText: 'Change' }).waitFor();
    await checkPage(page, 'payments-cash-dialog');
    await dialog().getByRole('button', { name: /^Record/ }).click();
    await page.locator('[data-payment]').nth(1).waitFor();
    order = (await hub.api.get(`/v1/orders/${id}`)).body;
    expect(order).toMatchObject({ payment_status: 'paid', amount_due: 0, status: 'completed' });
    const cash = (await hub.api.get(`/v1/payments?order=${id}&method=cash`)).body.data[0];
    expect(cash.change_amount).toBe(5000 - cash.amount);
    await expect.poll(dueText).toContain('0.00');
    // the table is free: no open check sits at it
    const atTable = (await hub.api.get(`/v1/orders?table=${menu.table}`)).body.data.filter((o: any) => ['placed', 'preparing', 'ready', 'served'].includes(o.status));
    expect(atTable).toEqual([]);
    await checkPage(page, 'payments-order-paid');

    // a refund of 5.00 on the completed check is a return: the check stays closed and owes nothing
    await page.locator('[data-payment]').filter({ hasText: 'Card' }).getByRole('button', { name: 'Refund' }).click();
    // what may still go back is the hub's figure, offered as it is
    const card = (await hub.api.get(`/v1/payments?order=${id}&method=card`)).body.data[0];
    expect(card.amount_refundable).toBe(card.amount);
    expect(await dialog().getByLabel(/Amount to give back/).inputValue()).toBe(euros(card.amount_refundable));
    await dialog().getByLabel(`Amount to give back (up to €${euros(card.amount_refundable)})`).waitFor();
    await dialog().getByLabel(/Amount to give back/).fill('5.00');
    await dialog().getByLabel('Reason').fill('cold pasta');
    await dialog().getByRole('button', { name: /^Give back/ }).click();
    await page.locator('[data-payment]').filter({ hasText: 'refunded' }).first().waitFor();
    expect((await hub.api.get(`/v1/orders/${id}`)).body).toMatchObject({ status: 'completed', amount_due: 0, amount_returned: 500, payment_status: 'paid' });
    await expect.poll(dueText).toContain('0.00');

    // split evenly in 3 on the other check: three shares of the bill as it stood, the last taking the rounding
    await page.goto(`${hub.url}/app/orders/${other.body.id}`);
    await page.getByRole('heading', { level: 2, name: /^Payment\b/ }).first().waitFor();
    const due = (await hub.api.get(`/v1/orders/${other.body.id}`)).body.amount_due as number;
    const third = Math.floor(due / 3);
    const shares = [third, third, due - 2 * third];
    await page.getByLabel('Ways').fill('3');
    for (const [i, share] of shares.entries()) {
      await expect.poll(() => page.getByTestId('pay-share').textContent()).toContain(`${i + 1} of 3 (€${euros(share)}`);
      await page.getByTestId('pay-share').click();
      await expect.poll(() => dialog().getByTestId('pay-amount').textContent()).toContain(euros(share));
      await dialog().getByLabel('Cash', { exact: true }).check();
      await dialog().getByRole('button', { name: /^Record/ }).click();
      await page.locator('[data-payment]').nth(i).waitFor();
      if (i === 0) {
        // the shares are the server's, not the page's: after a reload the next share is still a third of the bill
        await page.reload();
        await page.getByRole('heading', { level: 2, name: /^Payment\b/ }).first().waitFor();
        await page.getByLabel('Ways').fill('3');
        const b = (await hub.api.get(`/v1/orders/${other.body.id}/balance?split=3`)).body;
        expect(b.split.shares.map((s: any) => s.amount)).toEqual(shares);
      }
    }
    const splitPays = (await hub.api.get(`/v1/payments?order=${other.body.id}`)).body.data.map((p: any) => p.amount);
    expect(splitPays.sort((a: number, b: number) => a - b)).toEqual([...shares].sort((a, b) => a - b));
    expect((await hub.api.get(`/v1/orders/${other.body.id}`)).body).toMatchObject({ amount_due: 0, payment_status: 'paid' });

    // close the day: the open check is warned about, the totals are the API's, the Z report prints
    await page.goto(`${hub.url}/app/close`);
    await page.getByRole('heading', { level: 1, name: 'Close the day' }).waitFor();
    // the hub's clock is the test's own: its business day is picked like any other day
    await page.getByLabel('Business day').fill(cash.business_date);
    const close = (await hub.api.get(`/v1/reports/day_close?date=${cash.business_date}`)).body;
    await expect.poll(() => page.getByTestId('close-total').textContent()).toContain(euros(close.payments.net));
    // the return is on its own line, and the sales tie out on screen as in the API
    for (const [testId, amount] of [
      ['sales-gross', close.sales.gross],
      ['sales-net', close.sales.net],
      ['sales-returns', -close.sales.refunds],
      ['sales-net-after-returns', close.sales.net_after_returns],
    ] as const) {
      await expect.poll(() => page.getByTestId(testId).textContent()).toContain(euros(Math.abs(amount)));
    }
    expect(close.sales.refunds).toBe(500);
    await page.getByLabel('Cash counted').fill(((close.cash.expected - 100) / 100).toFixed(2));
    await page.getByRole('button', { name: 'Record the count' }).click();
    await expect.poll(() => page.getByTestId('cash-over-short').textContent()).toContain('1.00');
    await checkPage(page, 'payments-day-close');
    const before = emu.texts().length;
    await page.getByRole('button', { name: 'Print the Z report' }).click();
    await page.getByRole('status').filter({ hasText: 'The Z report is on its way' }).waitFor();
    await drain(hub);
    expect(emu.texts().slice(before).some((t) => t.includes('Z REPORT') && t.includes('Short'))).toBe(true);
  }, 120_000); // 120 s: Chromium and a hub on a shared 2-core box, through several pages

  it('lists a voided line at 0.00 and a comp as such, and its totals add up on screen as the API says', async () => {
    const created = await hub.api.post('/v1/orders', {
      type: 'dine_in',
      status: 'placed',
      items: [
        { menu_item: menu.pasta, quantity: 1, seat: 1 },
        { menu_item: menu.water, quantity: 2, seat: 1 },
        { menu_item: menu.pasta, quantity: 1, seat: 2 },
      ],
    });
    const id = created.body.id as string;
    expect((await hub.api.post(`/v1/orders/${id}/items/1/void`, { reason: 'spilled' })).status).toBe(200);
    expect((await hub.api.post(`/v1/orders/${id}/items/2/discount`, { percent: 100, reason: 'birthday' })).status).toBe(200);
    const o = (await hub.api.get(`/v1/orders/${id}`)).body;
    await page.goto(`${hub.url}/app/orders/${id}`);
    await page.getByRole('heading', { level: 2, name: 'Items' }).waitFor();
    const euros = (n: number) => (n / 100).toFixed(2);
    const table = page.locator('section.card').filter({ has: page.getByRole('heading', { level: 2, name: 'Items' }) }).locator('table.data');
    for (const l of o.items) {
      const row = table.locator(`tr[data-line="${l.id}"]`);
      await expect.poll(() => row.getByTestId('line-net').textContent()).toContain(euros(l.net_amount));
    }
    await expect.poll(() => table.locator(`tr[data-line="${o.items[1].id}"]`).textContent()).toContain('voided');
    await expect.poll(() => table.locator(`tr[data-line="${o.items[2].id}"]`).textContent()).toContain('comp');
    const cents = (x: string | null) => Number((x ?? '').replace(/[^\d.]/g, '')) * 100;
    const foot = (await table.locator('tfoot td.num').allTextContents()).map(cents);
    // subtotal − discounts (+ tax where it is added on top) = total, each as the API has it; tax
    // inside the prices is told after the total, not as a line of the sum
    const [subtotal, discounts] = foot;
    const total = cents(await table.locator('tfoot tr.total td.num').textContent());
    const tax = o.prices_include_tax ? cents(await table.locator('tfoot tr.tax-included td.num').textContent()) : foot[2];
    expect([Math.round(subtotal), Math.round(discounts), Math.round(tax), Math.round(total)]).toEqual([o.subtotal, o.discount_amount, o.tax_amount, o.total]);
    expect(o.subtotal - o.discount_amount + (o.prices_include_tax ? 0 : o.tax_amount)).toBe(o.total);
    await checkPage(page, 'order-lines-voided-comped');
  }, 60_000);

  it('shows the tip and the delivery fee each as the hub stored it, adding neither to the other', async () => {
    const created = (await hub.api.post('/v1/orders', { type: 'takeout', status: 'placed', items: [{ menu_item: menu.pasta, quantity: 1 }] })).body;
    // neither is set through the API (a delivery platform's order brings them): written as sync would, through the one write path
    await updateRecord(hub.server.services.db, 'orders', { id: created.id }, { tip_amount: 300, delivery_fee: 250, total: created.total + 550 });
    const o = (await hub.api.get(`/v1/orders/${created.id}`)).body;
    expect(o).toMatchObject({ tip_amount: 300, delivery_fee: 250 });
    await page.goto(`${hub.url}/app/orders/${o.id}`);
    const foot = page.locator('section.card').filter({ has: page.getByRole('heading', { level: 2, name: 'Items' }) }).locator('table.data tfoot');
    await foot.locator('tr', { hasText: 'Tip' }).getByText('€3.00').waitFor();
    await foot.locator('tr', { hasText: 'Delivery fee' }).getByText('€2.50').waitFor();
    expect(await foot.textContent()).not.toContain('5.50');
  }, 60_000);
});
