import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestHub } from '../helpers/server.ts';
import { checkPage, signedInHub, IN_BROWSER } from './browser.ts';

/** A line cook with no email is added from the Staff page with a PIN, and listed as PIN-only. */
describe('staff without an email in the browser', IN_BROWSER, () => {
  let hub: TestHub;
  let browser: Browser;
  let page: Page;
  let close = async () => {};

  beforeAll(async () => {
    ({ hub, browser, page, close } = await signedInHub('Bistro Neuf'));
  }, 60_000);
  afterAll(() => close());

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
