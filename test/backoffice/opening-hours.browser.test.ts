import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestHub } from '../helpers/server.ts';
import { checkPage, signedInHub, IN_BROWSER } from './browser.ts';

const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** Opening hours filled in once and copied to the week, then one day changed: not 14 entries. */
describe('opening hours in the browser', IN_BROWSER, () => {
  let hub: TestHub;
  let browser: Browser;
  let page: Page;
  let close = async () => {};

  beforeAll(async () => {
    ({ hub, browser, page, close } = await signedInHub('Bistro Neuf'));
  }, 60_000);
  afterAll(() => close());

  it('copies one day\'s hours to every day', async () => {
    await page.goto(`${hub.url}/app/settings#hours`);
    const monday = page.getByRole('group', { name: 'Monday' });
    // nothing to copy from an empty day
    expect(await monday.getByRole('button', { name: 'Copy to every day' }).count()).toBe(0);
    await monday.getByLabel('Opens').fill('12:00');
    await monday.getByLabel('Closes').fill('14:30');
    await monday.getByRole('button', { name: 'Add hours' }).click();
    await monday.getByLabel('Opens').nth(1).fill('18:00');
    await monday.getByLabel('Closes').nth(1).fill('23:00');
    await monday.getByRole('button', { name: 'Copy to every day' }).click();
    for (const day of DAYS) {
      const group = page.getByRole('group', { name: day });
      expect(await group.getByLabel('Opens').evaluateAll((els) => els.map((el) => (el as unknown as { value: string }).value)), day).toEqual(['12:00', '18:00']);
      expect(await group.getByLabel('Closes').evaluateAll((els) => els.map((el) => (el as unknown as { value: string }).value)), day).toEqual(['14:30', '23:00']);
    }
    // Sunday's evening differs: edited after the copy, the copy did not link the days
    await page.getByRole('group', { name: 'Sunday' }).getByLabel('Closes').nth(1).fill('21:00');
    await checkPage(page, 'opening-hours-copied');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').getByText('Saved').waitFor();
    const hours = (await hub.api.get('/v1/settings')).body.opening_hours;
    const week = [{ open: '12:00', close: '14:30' }, { open: '18:00', close: '23:00' }];
    expect(hours).toEqual({
      monday: week,
      tuesday: week,
      wednesday: week,
      thursday: week,
      friday: week,
      saturday: week,
      sunday: [{ open: '12:00', close: '14:30' }, { open: '18:00', close: '21:00' }],
    });
  });
});
