import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, shot, IN_BROWSER } from '../backoffice/browser.ts';
import type { TestHub } from '../helpers/server.ts';
import { until } from '../helpers/until.ts';
import { amountShown, eur, openCheckAt, openServiceTablet, signInMia, type ServiceTablet } from './tablet.ts';

/**
 * Issue 39, "one item split in N", on an 800×1280 tablet held upright: in the pay pane a line is
 * split three ways and its shares paid one at a time (card, cash, card); every share's amount,
 * what is left on the line and what each payment records are read on screen and compared with
 * the API's.
 */
describe('splitting one item at the table', IN_BROWSER, () => {
  let tablet: ServiceTablet;
  let hub: TestHub;
  let page: Page;

  beforeAll(async () => {
    tablet = await openServiceTablet({ width: 800, height: 1280 });
    ({ hub, page } = tablet);
  }, 90_000); // 90 s: Chromium and a hub on a shared 2-core box
  afterAll(async () => {
    await tablet?.close();
  });

  it('splits a line three ways, pays each share as the hub computes it, and shows what is left on the line', async () => {
    await signInMia(tablet);
    await page.locator(`[data-table="${tablet.table1}"]`).click();
    await page.getByRole('button', { name: '2 guests' }).click();
    const add = page.getByRole('dialog').getByRole('button', { name: 'Add', exact: true });
    await page.getByRole('button', { name: 'Seat 1', exact: true }).click();
    await page.getByRole('button', { name: /^Carbonara/ }).click();
    await add.click();
    await page.getByRole('button', { name: /^Water/ }).click();
    await add.click();
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('[data-line="1"]').waitFor();
    const order = await openCheckAt(hub, tablet.menu.table);
    const pasta = order.items[0];
    expect(pasta.name).toBe('Carbonara');

    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    const pane = page.getByRole('region', { name: 'Split one item' });
    await pane.getByRole('button', { name: `1× Carbonara · ${eur(pasta.net_amount)}` }).click();
    await pane.getByRole('button', { name: 'Split in 3' }).click();
    const dialog = page.getByRole('dialog');
    const payments = async () => (await hub.api.get(`/v1/payments?order=${order.id}`)).body.data as any[];

    for (const [k, method] of [[1, 'card'], [2, 'cash'], [3, 'card']] as const) {
      const api = (await hub.api.get(`/v1/orders/${order.id}/balance?items=${pasta.id}:3`)).body;
      const split = api.split_items[0];
      // every share and what is left on the line, as the hub has them
      await until(`share ${k} owing on screen`, async () => (await pane.locator(`[data-share-part="${k}"]`).getAttribute('data-paid')) === 'false' && (await pane.locator('[data-split-left]').getAttribute('data-split-left')) === String(split.left));
      for (const s of split.shares) {
        const row = pane.locator(`[data-share-part="${s.part}"]`);
        expect([await row.getAttribute('data-amount'), await row.getAttribute('data-paid')]).toEqual([String(s.amount), String(s.paid)]);
        expect(await amountShown(row.locator('strong'))).toBe(s.amount);
      }
      expect((await pane.locator('[data-split-left]').textContent())?.trim()).toBe(`Left on this line: ${eur(split.left)}`);
      const pay = pane.getByRole('button', { name: `Pay share ${k} of 3 · ${eur(api.items_charge.amount)}` });
      expect(api.items_charge.item_shares).toEqual([{ item: pasta.id, parts: 3, part: k, amount: split.shares[k - 1].amount }]);
      if (k === 1) await checkPage(page, 'split-item-pane');
      await pay.click();
      expect(await dialog.getByTestId('pay-share').textContent()).toContain(`Share ${k} of 3`);
      expect(await amountShown(dialog.getByTestId('pay-amount').locator('strong'))).toBe(api.items_charge.amount);
      // the dialog keeps the last method: each share names its own
      await dialog.getByText(method === 'cash' ? 'Cash' : 'Card', { exact: true }).click();
      if (method === 'cash') {
        await dialog.getByLabel('Cash given').fill('10.00');
        await dialog.getByRole('status').getByText(eur(1000 - api.items_charge.amount)).waitFor();
      }
      await dialog.getByRole('button', { name: `Record ${eur(api.items_charge.amount)}` }).click();
      await until(`share ${k} recorded`, async () => (await payments()).length === k);
      expect((await payments())[0]).toMatchObject({ method, amount: api.items_charge.amount, items: [], item_shares: [{ item: pasta.id, parts: 3, part: k }] });
    }

    // all three paid: they add up to the line exactly, the pane says nothing is left on it
    const done = (await hub.api.get(`/v1/orders/${order.id}/balance`)).body;
    const split = done.split_items[0];
    expect(split).toMatchObject({ item: pasta.id, parts: 3, paid: pasta.net_amount, left: 0, next: null });
    expect((await payments()).reduce((s, p) => s + p.amount, 0)).toBe(pasta.net_amount);
    await until('every share paid on screen', async () => (await pane.locator('[data-paid="true"]').count()) === 3);
    for (const s of split.shares) expect(await amountShown(pane.locator(`[data-share-part="${s.part}"] strong`))).toBe(s.amount);
    expect((await pane.locator('[data-split-left]').textContent())?.trim()).toBe(`Left on this line: ${eur(0)}`);
    expect(await pane.getByRole('button', { name: /^Pay share/ }).count()).toBe(0);
    // the payment panel marks the line paid, as a line paid whole
    await page.locator(`.payment-panel [data-line="${pasta.id}"]`).getByText('paid', { exact: true }).waitFor();
    // the water is left to pay, on the check and in the panel
    const after = (await hub.api.get(`/v1/orders/${order.id}`)).body;
    expect(after.amount_due).toBe(order.total - pasta.net_amount);
    await page.locator(`[data-testid="amount-due"]`).getByText(eur(after.amount_due)).waitFor();
    await shot(page, 'split-item-paid');
  });
});
