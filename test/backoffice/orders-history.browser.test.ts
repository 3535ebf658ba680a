import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock.ts';
import { seedDemo } from '../../server/demo/seed.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { checkPage, launch, setUpVenue, signIn, IN_BROWSER } from './browser.ts';

/** Orders → History on a venue with nothing yet today (the demo, the morning after) opens on the last day with orders. */
describe('order history in the browser', IN_BROWSER, () => {
  let hub: TestHub;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    hub = await startHub('sqlite', { clock: new ManualClock(Date.now()) });
    await setUpVenue(hub.url, 'Trattoria Demo');
    await seedDemo(hub.server.services.tx, { restaurantId: hub.restaurant.id, livemode: true, now: hub.clock.now() }, { historyDays: 2, ordersPerDay: 8 }, hub.server.services.registry.hooks);
    browser = await launch();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' })).newPage();
    page.setDefaultTimeout(10_000);
    await signIn(page, hub.url);
  }, 90_000); // 90 s: Chromium and a hub on a shared 2-core box, through several pages
  afterAll(async () => {
    await browser?.close();
    await hub?.close();
  });

  it('opens on the newest day with orders when today has none', async () => {
    const newest = (await hub.api.get('/v1/orders?limit=1')).body.data[0];
    const zone = (await hub.api.get('/v1/settings')).body.timezone;
    const dayOf = (unix: number) => new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(unix * 1000);
    const lastDay = dayOf(newest.created);
    expect(lastDay).not.toBe(dayOf(Math.floor(Date.now() / 1000)));
    await page.getByRole('link', { name: 'Orders', exact: true }).click();
    await page.getByRole('tab', { name: 'History' }).click();
    const history = page.getByRole('region', { name: 'History' });
    await expect.poll(() => history.getByLabel('Date').inputValue()).toBe(lastDay);
    await history.getByText(`#${newest.order_number}`, { exact: false }).first().waitFor();
    expect(await history.getByText('No orders match').count()).toBe(0);
    await checkPage(page, 'orders-history-last-day');
  });
});
