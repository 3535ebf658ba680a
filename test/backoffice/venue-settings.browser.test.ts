import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestHub } from '../helpers/server.ts';
import { checkPage, signedInHub, IN_BROWSER } from './browser.ts';

/**
 * The venue's own settings in Chromium against a real hub: its address in guest links is
 * edited on the Settings page, and a guest's phone opening a poster printed under the old
 * address still reaches the venue (and is shown the new address).
 */
describe('venue settings in the browser', IN_BROWSER, () => {
  let hub: TestHub;
  let browser: Browser;
  let page: Page;
  let close = async () => {};

  beforeAll(async () => {
    ({ hub, browser, page, close } = await signedInHub('Chez Ada'));
  }, 60_000);
  afterAll(() => close());

  it('edits the address in guest links; the old waitlist link still opens the venue', async () => {
    await page.getByRole('link', { name: 'Settings' }).click();
    const slug = page.getByLabel('Address in guest links');
    await expect.poll(() => slug.inputValue()).toBe('test-bistro');
    await slug.fill('ada-bistro');
    await page.getByText(`${hub.url}/r/ada-bistro/waitlist`).waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').getByText('Saved').waitFor();
    await checkPage(page, 'venue-slug-saved');
    // the Share page now hands out the new address
    await page.getByRole('link', { name: 'Share and connect' }).click();
    await expect.poll(() => page.locator('#addr-waitlist').inputValue()).toMatch(/\/r\/ada-bistro\/waitlist$/);

    // a guest scanning the old poster: the venue's page, the new address in the bar
    // open now (the hub's clock stands on a Monday)
    expect((await hub.api.patch('/v1/settings', { opening_hours: { monday: [{ open: '00:00', close: '23:59' }] }, waitlist: { enabled: true } })).status).toBe(200);
    const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-GB', isMobile: true })).newPage();
    await phone.goto(`${hub.url}/r/test-bistro/waitlist`);
    await phone.getByRole('heading', { name: /Chez Ada/ }).first().waitFor();
    await expect.poll(() => new URL(phone.url()).pathname).toBe('/r/ada-bistro/waitlist');
    await checkPage(phone, 'venue-slug-old-link-phone');
    await phone.close();
  });

  it('orders the stations and sends one dish to its own station', async () => {
    await page.getByRole('link', { name: 'Settings' }).click();
    const stations = page.locator('section#stations');
    await stations.getByLabel('New station').fill('Fryer');
    await stations.getByRole('button', { name: 'Add station' }).click();
    await stations.getByRole('button', { name: 'Move Fryer up' }).waitFor();
    // the fryer to the top, one step at a time
    for (let i = 0; i < 4; i++) {
      await expect.poll(() => stations.getByRole('button', { name: 'Move Fryer up' }).isEnabled()).toBe(true);
      await stations.getByRole('button', { name: 'Move Fryer up' }).click();
    }
    await expect.poll(async () => (await hub.api.get('/v1/stations')).body.data.map((s: any) => s.key)).toEqual(['fryer', 'kitchen', 'bar', 'dessert', 'other']);
    await expect.poll(() => stations.getByRole('button', { name: 'Move Fryer up' }).isDisabled()).toBe(true);
    await checkPage(page, 'venue-stations-ordered');

    // a burger category at the kitchen; its fries go to the fryer
    const category = (await hub.api.post('/v1/menu_categories', { name: 'Burgers' })).body.id;
    const fries = (await hub.api.post('/v1/menu_items', { name: 'Fries', category, price: 450 })).body.id;
    await page.getByRole('link', { name: 'Menu', exact: true }).click();
    await page.getByRole('button', { name: 'Edit Fries' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit item' });
    const station = dialog.getByLabel('Station', { exact: true });
    expect(await station.locator('option:checked').textContent()).toBe('As its category (Kitchen)');
    await station.selectOption({ label: 'Fryer' });
    await checkPage(page, 'venue-item-station');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await hub.api.get(`/v1/menu_items/${fries}`)).body.station).toBe('fryer');
    await page.getByText('Station: Fryer').waitFor();
  });
});
