import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type TestHub } from '../helpers/server.ts';
import { checkPage, launch, OWNER, IN_BROWSER } from './browser.ts';

/**
 * Setup guesses what it can and shows it (issue 41, items 11 and 12): the address from the
 * name, the tax rate and whether prices include it from the time zone's country; Settings then
 * keeps "prices include tax" editable.
 */
describe('setup defaults in the browser', IN_BROWSER, () => {
  let hub: TestHub;
  let browser: Browser;

  beforeAll(async () => {
    hub = await startHub('sqlite');
    browser = await launch();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await hub?.close();
  });

  it('a venue in Madrid: slug from the name, 10 % tax, prices with tax; all editable; Settings switches the rule', async () => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB', timezoneId: 'Europe/Madrid' })).newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(`${hub.url}/app/setup`);
    await page.getByLabel('Restaurant name').fill('Osteria Nuova');
    await expect.poll(() => page.getByLabel('Address in guest links').inputValue()).toBe('osteria-nuova');
    expect(await page.getByLabel('Default tax rate %').inputValue()).toBe('10');
    expect(await page.getByRole('switch', { name: 'Menu prices include tax' }).isChecked()).toBe(true);
    // another zone, another country: its rate; a currency taxed on top turns the rule off
    await page.getByLabel('Time zone').selectOption('America/New_York');
    expect(await page.getByLabel('Currency').inputValue()).toBe('USD');
    expect(await page.getByRole('switch', { name: 'Menu prices include tax' }).isChecked()).toBe(false);
    await page.getByLabel('Time zone').selectOption('Europe/Madrid');
    expect(await page.getByLabel('Default tax rate %').inputValue()).toBe('10');
    await page.getByLabel('Currency').selectOption('EUR');
    expect(await page.getByRole('switch', { name: 'Menu prices include tax' }).isChecked()).toBe(true);
    await page.getByLabel('Default tax rate %').fill('10,5');
    await page.getByLabel('Name', { exact: true }).fill(OWNER.name);
    await page.getByLabel('Email', { exact: true }).fill(OWNER.email);
    await page.getByLabel('Password', { exact: true }).fill(OWNER.password);
    await checkPage(page, 'setup-defaults');
    await page.getByRole('button', { name: 'Create and sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Today' }).waitFor();
    const settings = (await hub.api.get('/v1/settings')).body;
    expect(settings).toMatchObject({ name: 'Osteria Nuova', slug: 'osteria-nuova', timezone: 'Europe/Madrid', currency: 'eur', default_tax_rate: 0.105, prices_include_tax: true });

    await page.getByRole('link', { name: 'Settings' }).click();
    const rule = page.getByRole('switch', { name: 'Menu prices include tax' });
    await expect.poll(() => rule.isChecked()).toBe(true);
    await rule.click({ force: true });
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').getByText('Saved').waitFor();
    expect((await hub.api.get('/v1/settings')).body.prices_include_tax).toBe(false);
  });
});
