import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, shot, IN_BROWSER } from '../backoffice/browser.ts';
import type { TestHub } from '../helpers/server.ts';
import { until } from '../helpers/until.ts';
import type { Menu } from '../orders/fixtures.ts';
import { amountShown, eur, openCheckAt, openServiceTablet, signInMia, type ServiceTablet } from './tablet.ts';

/**
 * Issue 39 item 9, on a 1024×768 tablet: the table's check shows each line's price and each
 * seat's subtotal as the hub computes them, the total and what is due; a covers prompt when the
 * table opens; seat chips up to the party, more on demand; a line moved to another seat; a QR
 * order's lines under "No seat" seated from the check; Pay and Split from the check recording
 * exactly what they show; Print bill.
 */
describe('paying from the table in service mode', IN_BROWSER, () => {
  let tablet: ServiceTablet;
  let hub: TestHub;
  let menu: Menu;
  let page: Page;
  let table1: number;
  let table2: number;

  beforeAll(async () => {
    tablet = await openServiceTablet({ width: 1024, height: 768 });
    ({ hub, menu, page, table1, table2 } = tablet);
  }, 90_000); // 90 s: Chromium and a hub on a shared 2-core box
  afterAll(async () => {
    await tablet?.close();
  });

  const orderAt = (tableId: string) => openCheckAt(hub, tableId);
  const seatChips = (p: Page) => p.getByRole('group', { name: 'Seat', exact: true }).getByRole('button', { name: /^Seat \d+$/ });
  /** Every amount on the check equals the API's: each line's net amount, each seat's total, the total and what is due. */
  const expectServerNumbers = async (orderId: string) => {
    const order = (await hub.api.get(`/v1/orders/${orderId}`)).body;
    await page.locator(`[data-total="${order.total}"]`).waitFor();
    await page.locator(`[data-due="${order.amount_due}"]`).waitFor();
    for (const l of order.items) {
      const price = page.locator(`[data-line="${l.index}"] .line-price`);
      expect(await price.getAttribute('data-net')).toBe(String(l.net_amount));
      expect((await price.textContent())?.trim()).toBe(eur(l.net_amount));
      expect(await page.locator(`[data-seat="${l.seat ?? 'none'}"] [data-line="${l.index}"]`).count()).toBe(1);
    }
    for (const s of order.seats) {
      const sum = page.locator(`[data-seat="${s.seat ?? 'none'}"] .seat-sum`);
      expect(await sum.getAttribute('data-seat-total')).toBe(String(s.net_amount));
      expect((await sum.textContent())?.trim()).toBe(eur(s.net_amount));
    }
    expect((await page.locator('.check-total dd').textContent())?.startsWith(eur(order.total))).toBe(true);
    expect((await page.locator('.check-due dd').textContent())?.trim()).toBe(eur(order.amount_due));
    return order;
  };
  it('asks the party size on opening a table, offers that many seats (more on demand), and shows the hub’s prices by seat', async () => {
    await signInMia(tablet);
    await page.locator(`[data-table="${table1}"]`).click();
    await page.getByRole('heading', { name: `Table ${table1}` }).waitFor();

    // a 4-seat table: the prompt and 4 seat chips until the party is said
    await page.getByRole('heading', { name: 'How many guests?' }).waitFor();
    expect(await seatChips(page).count()).toBe(4);
    await checkPage(page, 'pay-at-table-covers');
    await page.getByRole('button', { name: '3 guests' }).click();
    await page.getByRole('button', { name: 'Party of 3' }).waitFor();
    expect(await seatChips(page).count()).toBe(3);
    // a fourth guest joins: "+ seat" adds seat 4 and picks it
    await page.getByRole('button', { name: '+ seat' }).click();
    expect(await seatChips(page).count()).toBe(4);
    expect(await page.getByRole('button', { name: 'Seat 4', exact: true }).getAttribute('aria-pressed')).toBe('true');

    const add = page.getByRole('dialog').getByRole('button', { name: 'Add', exact: true });
    await page.getByRole('button', { name: /^Water/ }).click();
    await add.click();
    await page.getByRole('button', { name: 'Seat 1', exact: true }).click();
    await page.getByRole('button', { name: /^Steak/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Rare' }).click();
    await add.click();
    await page.getByRole('button', { name: 'Seat 2', exact: true }).click();
    await page.getByRole('button', { name: /^Carbonara/ }).click();
    await add.click();
    await page.getByRole('button', { name: /^Carbonara/ }).click();
    await add.click();
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('[data-line="3"]').waitFor();

    const order = await orderAt(menu.table);
    expect(order.covers).toBe(3);
    expect(order.items.map((l: any) => [l.name, l.seat])).toEqual([['Water', 4], ['Steak', 1], ['Carbonara', 2], ['Carbonara', 2]]);
    // each line's kitchen state beside its price
    await page.locator('[data-line="1"]').getByText('Sent').waitFor();

    // a voided line is struck through at 0.00; a comp is marked
    await page.locator('[data-line="0"]').getByRole('button', { name: 'Void' }).click();
    await page.getByLabel('Why is it voided?').fill('brought by mistake');
    await page.getByRole('dialog').getByRole('button', { name: 'Void' }).click();
    await page.locator('[data-line="0"] s').getByText(eur(0)).waitFor();
    await page.locator('[data-line="3"]').getByRole('button', { name: 'Discount Carbonara' }).click();
    await page.getByRole('dialog').getByLabel(/^Why\?/).fill('birthday');
    await page.getByRole('dialog').getByRole('button', { name: 'Comp it' }).click();
    await page.locator('[data-line="3"]').getByText('comp', { exact: true }).waitFor();
    await expectServerNumbers(order.id);
    await checkPage(page, 'pay-at-table-check');
  });

  it('moves a line to another seat, by its button and by dragging it', async () => {
    const order = await orderAt(menu.table);
    await page.locator('[data-line="2"]').getByRole('button', { name: 'Move to seat: Carbonara' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Seat 3', exact: true }).click();
    await page.locator('[data-seat="3"] [data-line="2"]').waitFor();
    expect((await hub.api.get(`/v1/orders/${order.id}`)).body.items[2].seat).toBe(3);
    // dragged back by its grip onto seat 2 (a finger's drag: pointer events), both on screen
    await page.locator('[data-seat="2"] .seat-head').scrollIntoViewIfNeeded();
    await page.locator('[data-line="2"] .line-grip').scrollIntoViewIfNeeded();
    const from = (await page.locator('[data-line="2"] .line-grip').boundingBox())!;
    const to = (await page.locator('[data-seat="2"] .seat-head').boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 5 });
    await page.locator('[data-seat="2"].drop-here').waitFor();
    await page.mouse.up();
    await until('the carbonara back on seat 2', async () => (await hub.api.get(`/v1/orders/${order.id}`)).body.items[2].seat === 2);
    await page.locator('[data-seat="2"] [data-line="2"]').waitFor();
    await expectServerNumbers(order.id);
  });

  it('lists a guest’s QR order under "No seat" and seats its lines from the check', async () => {
    const qr = (await hub.api.post('/v1/qr_codes', { table: menu.table2 })).body;
    const guest = hub.api.withKey(null);
    const placed = await guest.post(`/public/qr/${qr.token}/orders`, { items: [{ menuItemId: menu.pasta, quantity: 1 }, { menuItemId: menu.water, quantity: 2 }] });
    expect(placed.status, JSON.stringify(placed.body)).toBeLessThan(300);
    await page.getByRole('button', { name: 'Floor' }).click();
    await page.locator(`[data-table="${table2}"]`).getByText('Ordered').waitFor();
    await page.locator(`[data-table="${table2}"]`).click();
    await page.getByRole('heading', { name: `Table ${table2}` }).waitFor();
    const order = await orderAt(menu.table2);
    expect(order.items.map((l: any) => l.seat)).toEqual([null, null]);
    // the check exists: no prompt, its party size asked on demand
    await page.getByRole('button', { name: 'Party size?' }).waitFor();
    await page.locator('[data-seat="none"] [data-line="0"]').waitFor();
    await expectServerNumbers(order.id);
    await page.locator('[data-line="1"]').getByRole('button', { name: 'Move to seat: Water' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Seat 2', exact: true }).click();
    await page.locator('[data-seat="2"] [data-line="1"]').waitFor();
    expect((await hub.api.get(`/v1/orders/${order.id}`)).body.items.map((l: any) => l.seat)).toEqual([null, 2]);
    await page.getByRole('button', { name: 'Party size?' }).click();
    await page.getByRole('button', { name: '2 guests' }).click();
    await page.getByRole('button', { name: 'Party of 2' }).waitFor();
    expect((await hub.api.get(`/v1/orders/${order.id}`)).body.covers).toBe(2);
    await expectServerNumbers(order.id);
    await shot(page, 'pay-at-table-qr');
  });

  it('prints the bill, then pays a seat, chosen items and the rest, each recorded as shown', async () => {
    await page.getByRole('button', { name: 'Floor' }).click();
    await page.locator(`[data-table="${table1}"]`).click();
    await page.getByRole('heading', { name: `Table ${table1}` }).waitFor();
    const order = await orderAt(menu.table);

    await page.getByRole('button', { name: 'Print bill' }).click();
    await page.getByRole('status').getByText('The bill is printing.').waitFor();
    const jobs = (await hub.api.get('/v1/print_jobs')).body.data.filter((j: any) => j.kind === 'receipt' && j.order === order.id);
    expect(jobs).toHaveLength(1);

    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await page.locator('#pay-title').waitFor();
    await checkPage(page, 'pay-at-table-pay');
    const payments = async () => (await hub.api.get(`/v1/payments?order=${order.id}`)).body.data as any[];

    // seat 1: the dialog's amount is the seat's total, and that is what is recorded
    await page.getByRole('button', { name: 'Pay seat 1' }).click();
    const dialog = page.getByRole('dialog');
    const seat1 = order.seats.find((s: any) => s.seat === 1).net_amount;
    expect(await amountShown(dialog.getByTestId('pay-amount').locator('strong'))).toBe(seat1);
    await dialog.getByRole('button', { name: `Record ${eur(seat1)}` }).click();
    await until('the seat paid', async () => (await payments()).length === 1);
    expect((await payments())[0]).toMatchObject({ amount: seat1, tip_amount: 0 });

    // by items: the carbonara left (the comped one costs nothing), paid as the chip says
    const now = (await hub.api.get(`/v1/orders/${order.id}`)).body;
    const carbonara = now.items[2];
    const chip = page.getByRole('region', { name: 'Pay for chosen items' }).getByRole('button', { name: `1× Carbonara · ${eur(carbonara.net_amount)}` });
    await chip.click();
    expect(await chip.getAttribute('aria-pressed')).toBe('true');
    const payItems = page.getByRole('button', { name: /^Pay 1 item · / });
    // the amount is the hub's (GET …/balance?items=), not a sum made on the tablet
    await until('the chosen line priced by the hub', () => payItems.isEnabled());
    const shown = await amountShown(payItems);
    await payItems.click();
    expect(await amountShown(dialog.getByTestId('pay-amount').locator('strong'))).toBe(shown);
    await dialog.getByLabel('Tip').fill('1.00');
    await dialog.getByRole('button', { name: `Record ${eur(shown + 100)}` }).click();
    await until('the item paid', async () => (await payments()).length === 2);
    const byItems = (await payments()).find((p) => p.items?.length);
    expect(byItems).toMatchObject({ amount: shown, tip_amount: 100, items: [carbonara.id] });

    const left = (await hub.api.get(`/v1/orders/${order.id}`)).body;
    if (left.amount_due > 0) {
      await page.locator(`[data-due="${left.amount_due}"]`).waitFor();
      await page.getByRole('button', { name: 'Pay the rest' }).click();
      await dialog.getByRole('button', { name: `Record ${eur(left.amount_due)}` }).click();
    }
    await page.getByText(`Table ${table1} is paid in full and free again.`).waitFor();
    const done = (await hub.api.get(`/v1/orders/${order.id}`)).body;
    expect(done).toMatchObject({ status: 'completed', amount_due: 0, amount_paid: done.total });
    await shot(page, 'pay-at-table-paid');
  });
});
