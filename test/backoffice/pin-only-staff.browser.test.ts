import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type TestHub } from '../helpers/server.ts';
import { checkPage, launch, setUpVenue, signIn, IN_BROWSER } from './browser.ts';

/** A line cook with no email is added from the Staff page with a PIN, and listed as PIN-only. */
describe('staff without an email in the browser', IN_BROWSER, () => {
  let hub: TestHub;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    hub = await startHub('sqlite');
    await setUpVenue(hub.url, 'Bistro Neuf');
    browser = await launch();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' })).newPage();
    page.setDefaultTimeout(10_000);
    await signIn(page, hub.url);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await hub?.close();
  });

  it('adds a PIN-only person and lists them sensibly', async () => {
    await page.getByRole('link', { name: 'Staff', exact: true }).click();
    await page.getByRole('button', { name: 'New staff member' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('Luca Ferrari');
    // no email: no password to set, nothing says "keep the current one" on a new person
    expect(await dialog.getByLabel('Password').count()).toBe(0);
    expect(await dialog.textContent()).not.toContain('keep the current');
    await dialog.getByLabel('PIN').fill('2468');
    await checkPage(page, 'staff-new-pin-only');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    const row = page.getByRole('row').filter({ hasText: 'Luca Ferrari' });
    await expect.poll(() => row.textContent()).toContain('No email (PIN only)');
    expect(await row.textContent()).toContain('PIN only');
    const stored = (await hub.api.get('/v1/staff?limit=100')).body.data.find((s: any) => s.name === 'Luca Ferrari');
    expect(stored).toMatchObject({ email: null, has_pin: true, has_password: false });
    await checkPage(page, 'staff-list-pin-only');
  });
});
