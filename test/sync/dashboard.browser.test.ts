import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock.ts';
import { checkPage, launch, IN_BROWSER } from '../backoffice/browser.ts';
import { seedMenu } from '../orders/fixtures.ts';
import { EVERY_DAY_NOON_TO_ELEVEN } from '../reservations/helpers.ts';
import { until } from '../helpers/until.ts';
import { converged, goOffline, goOnline, startPair, type Pair } from './helpers.ts';

/**
 * The back office of a hub really linked to a cloud (in process: the hub on SQLite, the cloud
 * on PostgreSQL), in Chromium: the link's state on Today and in Settings → Sync, then the same
 * table booked on both sides and an order cancelled here but completed there while apart, which
 * the merge settles and lists, shown as conflicts a manager can read and open, and one settled on
 * the cloud gone from the hub's list.
 */
describe('sync in the back office', IN_BROWSER, () => {
  let pair: Pair & { link(): Promise<unknown> };
  let browser: Browser;
  let page: Page;
  const password = 'a very good password';

  beforeAll(async () => {
    // the hub on the real time: the browser's session cookie follows the hub's clock
    pair = await startPair({ hubClock: new ManualClock(Date.now()) });
    const setup = await fetch(`${pair.hub.url}/v1/auth/setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ restaurant_name: 'Linked Bistro', timezone: 'UTC', currency: 'eur', owner_name: 'Ada Owner', owner_email: 'ada@example.com', owner_password: password }),
    });
    expect(setup.status).toBeLessThan(300);
    browser = await launch();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' })).newPage();
    page.setDefaultTimeout(10_000);
  }, 90_000); // 90 s: Chromium and a hub on a shared 2-core box, through several pages
  afterAll(async () => {
    await browser?.close();
    await pair?.close();
  });

  const health = () => page.locator('section', { has: page.getByRole('heading', { name: 'Printers, sync and backups' }) });
  const attention = () => page.locator('section', { has: page.getByRole('heading', { name: 'Needs attention' }) });

  it('shows the link connected and up to date, on Today and in Settings → Sync', async () => {
    await pair.link();
    await until('the hub is connected', async () => (await pair.hub.api.get('/v1/sync/status')).body.connected === true);
    await page.goto(`${pair.hub.url}/app/login`);
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Today' }).waitFor();
    await health().getByText('Connected', { exact: true }).waitFor();
    expect(await health().textContent()).not.toContain('not linked');
    await attention().getByText('All good').waitFor();

    await health().getByRole('link', { name: 'Cloud sync' }).click();
    await page.getByRole('tab', { name: 'Cloud sync', selected: true }).waitFor();
    const link = page.locator('section', { has: page.getByRole('heading', { name: 'Link to the cloud' }) });
    await link.getByText(pair.cloud.url).waitFor();
    await link.getByText('Connected', { exact: true }).waitFor();
    await page.getByText('No conflicts.').waitFor();
    await checkPage(page, 'settings-sync-linked');
  });

  it('lists the table booked on both sides while apart, in words, with a link to the booking', async () => {
    expect((await pair.hub.api.patch('/v1/settings', { opening_hours: EVERY_DAY_NOON_TO_ELEVEN })).status).toBe(200);
    const table = (await pair.hub.api.post('/v1/tables', { number: 9, capacity: 4 })).body;
    const menu = await seedMenu(pair.hub);
    const order = (await pair.hub.api.post('/v1/orders', { type: 'takeout', customer_name: 'Ada', items: [{ menu_item: menu.pasta, quantity: 1 }] })).body;
    expect((await pair.hub.api.patch(`/v1/orders/${order.id}`, { status: 'placed' })).status).toBe(200);
    const { ok: ready } = await converged(pair);
    expect(ready).toBe(true);
    await goOffline(pair.hub);
    const date = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const atHub = await pair.hub.api.post('/v1/reservations', { guest_name: 'Hub Guest', party_size: 2, date, time: '19:00', table: table.id });
    const atCloud = await pair.cloudApi.post('/v1/reservations', { guest_name: 'Cloud Guest', party_size: 2, date, time: '19:00', table: table.id });
    expect([atHub.status, atCloud.status], JSON.stringify([atHub.body, atCloud.body])).toEqual([201, 201]);
    // the hub cancels the order while the cloud's till completes it: completed wins, the cancel is listed
    expect((await pair.hub.api.patch(`/v1/orders/${order.id}`, { status: 'cancelled', cancel_reason: 'guest left' })).status).toBe(200);
    expect((await pair.cloudApi.patch(`/v1/orders/${order.id}`, { status: 'completed' })).status).toBe(200);
    goOnline(pair.hub);
    const { ok } = await converged(pair);
    expect(ok).toBe(true);
    expect((await pair.hub.api.get('/v1/sync/status')).body.conflicts.map((c: any) => c.kind).sort()).toEqual(['double_booking', 'status_overruled']);

    await page.goto(`${pair.hub.url}/app/`);
    const line = attention().getByRole('link', { name: /^Table 9 is booked twice on .*, 19:00: (Hub Guest and Cloud Guest|Cloud Guest and Hub Guest)\. Move one of them\.$/ });
    await line.waitFor();
    await attention().getByText('Sync conflict').first().waitFor();
    const overruled = attention().getByRole('link', { name: `Order #${order.order_number} was set to “Cancelled” on one side and “Completed” on the other; “Completed” was kept.` });
    await overruled.waitFor();
    await health().getByText('Connected', { exact: true }).waitFor();
    await checkPage(page, 'today-sync-conflict');

    await page.goto(`${pair.hub.url}/app/settings?tab=sync`);
    const listed = page.locator('section', { has: page.getByRole('heading', { name: 'Sync conflicts' }) });
    await listed.getByRole('link', { name: /^Table 9 is booked twice/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Reservations' }).waitFor();
    await page.getByRole('dialog', { name: /(Hub|Cloud) Guest/ }).waitFor();

    await page.goto(`${pair.hub.url}/app/`);
    await overruled.click();
    await page.getByRole('heading', { level: 1, name: `Order #${order.order_number}` }).waitFor();
  }, 60_000);

  it("on the cloud (the owner's sign-in came with the restaurant) mail and SMS are shown, not edited, and backups are the hub's", async () => {
    const office = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    const cloud = await office.newPage();
    cloud.setDefaultTimeout(10_000);
    try {
      await cloud.goto(`${pair.cloud.url}/app/login`);
      await cloud.getByLabel('Email').fill('ada@example.com');
      await cloud.getByLabel('Password').fill(password);
      await cloud.getByRole('button', { name: 'Sign in' }).click();
      await cloud.getByRole('heading', { level: 1, name: 'Today' }).waitFor();
      await cloud.goto(`${pair.cloud.url}/app/settings?tab=mail`);
      await cloud.getByText('This is the cloud: its mail and SMS are set in its environment').waitFor();
      expect(await cloud.getByRole('button', { name: 'Save' }).count()).toBe(0);
      await checkPage(cloud, 'cloud-settings-mail');
      await cloud.getByRole('tab', { name: 'Backups' }).click();
      await cloud.getByText('This server makes no backups').waitFor();
      await cloud.getByRole('tab', { name: 'Cloud sync' }).click();
      await cloud.locator('section', { has: cloud.getByRole('heading', { name: 'Link to the hub' }) }).getByText('Connected', { exact: true }).waitFor();
      await checkPage(cloud, 'cloud-settings-sync');

      // the double booking is listed on the cloud too; settled there, it leaves the hub's list as well
      const listed = cloud.locator('section', { has: cloud.getByRole('heading', { name: 'Sync conflicts' }) });
      await listed.locator('li', { hasText: 'Table 9 is booked twice' }).getByRole('button', { name: 'Mark as settled' }).click();
      const dialog = cloud.getByRole('dialog', { name: 'Mark this conflict as settled' });
      await dialog.getByLabel('Note (optional)').fill('Cloud Guest moved to 20:30 by phone.');
      await checkPage(cloud, 'cloud-settle-dialog');
      await dialog.getByRole('button', { name: 'Mark as settled' }).click();
      await expect.poll(() => listed.getByText(/Table 9 is booked twice/).count()).toBe(0);
      const onHub = async () => (await pair.hub.api.get('/v1/sync/status')).body.conflicts.map((c: any) => c.kind);
      await until('the double booking settled on the hub', async () => !(await onHub()).includes('double_booking'));
      expect(await onHub()).toEqual(['status_overruled']);
      await page.goto(`${pair.hub.url}/app/settings?tab=sync`);
      const hubList = page.locator('section', { has: page.getByRole('heading', { name: 'Sync conflicts' }) });
      await hubList.getByRole('link', { name: /^Order #/ }).waitFor();
      expect(await hubList.getByText(/Table 9 is booked twice/).count()).toBe(0);
      await checkPage(page, 'settings-sync-settled-on-cloud');
    } finally {
      await office.close();
    }
  });
});
