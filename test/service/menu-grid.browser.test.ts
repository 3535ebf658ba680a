import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, setUpVenue, signIn, IN_BROWSER } from '../backoffice/browser.ts';
import { startHub, type TestHub } from '../helpers/server.ts';

/** A long menu on the service page: the grid draws a screenful, more as it scrolls; search reaches every item. */
describe('a 300-item menu grid on the service page', IN_BROWSER, () => {
  let hub: TestHub;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    hub = await startHub('sqlite');
    const cat = (await hub.api.post('/v1/menu_categories', { name: 'Everything' })).body.id;
    for (let n = 1; n <= 300; n++) expect((await hub.api.post('/v1/menu_items', { name: `Dish ${String(n).padStart(3, '0')}`, category: cat, price: 900 })).status).toBe(201);
    expect((await hub.api.post('/v1/tables', { number: 7, capacity: 4 })).status).toBe(201);
    await setUpVenue(hub.url, 'Test Bistro');
    browser = await launch();
    page = await (await browser.newContext({ viewport: { width: 800, height: 1280 }, locale: 'en-GB' })).newPage();
    page.setDefaultTimeout(10_000);
    await signIn(page, hub.url);
  }, 90_000); // 90 s: Chromium and a hub on a shared 2-core box, through several pages
  afterAll(async () => {
    await browser?.close();
    await hub?.close();
  });

  const tiles = () => page.locator('.tile-grid > li');

  it('draws the first tiles, the rest as it is scrolled; a search finds an item past them', async () => {
    await page.goto(`${hub.url}/app/service`);
    await page.locator('[data-table="7"]').click();
    await page.locator('.tile-grid[data-total="300"] > li').first().waitFor();
    // pages of 80: a screenful and the next, not all 300
    expect(await tiles().count()).toBeLessThan(300);
    expect((await tiles().count()) % 80).toBe(0);
    await page.getByRole('searchbox').fill('dish 29');
    await page.getByRole('button', { name: /^Dish 299/ }).waitFor();
    expect(await tiles().count()).toBe(10);
    await page.getByRole('searchbox').fill('');
    await page.locator('.tile-grid[data-total="300"] > li').first().waitFor();
    for (let i = 0; i < 5 && (await tiles().count()) < 300; i++) await tiles().last().scrollIntoViewIfNeeded();
    await page.getByRole('button', { name: /^Dish 300/ }).waitFor();
    await page.getByRole('button', { name: /^Dish 001/ }).waitFor();
    expect(await tiles().count()).toBe(300);
  });
});
