import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, IN_BROWSER, signedInHub } from './browser.ts';
import type { TestHub } from '../helpers/server.ts';

/**
 * Tables' QR menus in table order on Share and connect, and each code's address printed under it
 * on the QR sheet (issue 41, item 15: the list read 11, 10, 5 … 1, newest code first, and the
 * sheet had no address, though the first-day guide says it does).
 */
describe('QR menus on Share and connect and the QR sheet', IN_BROWSER, () => {
  let hub: TestHub;
  let browser: Browser;
  let page: Page;
  let close: () => Promise<void>;
  const urls = new Map<number, string>();

  beforeAll(async () => {
    ({ hub, browser, page, close } = await signedInHub('Trattoria Ordine'));
    // made in no order: the codes list newest first
    for (const n of [2, 11, 5, 1, 10]) {
      const table = await hub.api.post('/v1/tables', { number: n, capacity: 4 });
      const code = await hub.api.post('/v1/qr_codes', { table: table.body.id });
      expect(code.status).toBe(201);
      urls.set(n, code.body.url);
    }
  }, 60_000);
  afterAll(async () => close?.());

  it('lists the table menus in table order', async () => {
    await page.goto(`${hub.url}/app/share`);
    await page.getByLabel('QR menu of table 11', { exact: true }).waitFor();
    const labels = await page.locator('label').filter({ hasText: /^QR menu of table \d+$/ }).allTextContents();
    expect(labels).toEqual([1, 2, 5, 10, 11].map((n) => `QR menu of table ${n}`));
  });

  it("prints each table's address under its code", async () => {
    await page.goto(`${hub.url}/app/floor/qr-sheet`);
    const cards = page.locator('.qr-card');
    await expect.poll(() => cards.count()).toBe(5);
    for (const [n, url] of urls) await cards.filter({ hasText: `Table ${n}` }).getByText(url, { exact: true }).waitFor();
    await checkPage(page, 'qr-sheet-addresses');
  });
});
