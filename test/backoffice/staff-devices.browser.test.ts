import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type TestHub } from '../helpers/server.ts';
import { checkPage, launch, setUpVenue, signIn, IN_BROWSER } from './browser.ts';

const ANDROID_TABLET = 'Mozilla/5.0 (Linux; Android 14; SM-X210) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const IPAD = 'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

/** Staff → Signed-in devices names each device as a person would, with when it was last used; never the raw user agent. */
describe('signed-in devices by name in the browser', IN_BROWSER, () => {
  let hub: TestHub;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    hub = await startHub('sqlite');
    await setUpVenue(hub.url, 'Bistro Neuf');
    browser = await launch();
    // the owner is also signed in on two tablets
    for (const userAgent of [ANDROID_TABLET, IPAD]) {
      const tablet = await (await browser.newContext({ viewport: { width: 800, height: 1280 }, locale: 'en-GB', userAgent })).newPage();
      tablet.setDefaultTimeout(10_000);
      await signIn(tablet, hub.url);
    }
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' })).newPage();
    page.setDefaultTimeout(10_000);
    await signIn(page, hub.url);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await hub?.close();
  });

  it('lists "Chrome on Android", "Safari on iPad" and this PC, each with when it was last used', async () => {
    await page.getByRole('link', { name: 'Staff', exact: true }).click();
    const list = page.locator('section', { has: page.getByRole('heading', { name: 'Signed-in devices' }) });
    await list.getByText('Chrome on Android').waitFor();
    await list.getByText('Safari on iPad').waitFor();
    await list.getByText('Chrome on Linux').waitFor();
    const text = (await list.textContent())!;
    expect(text).not.toContain('Mozilla');
    expect(text).not.toContain('AppleWebKit');
    const rows = await list.getByRole('listitem').allTextContents();
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (const row of rows) expect(row).toMatch(/ · last used \S/);
    await checkPage(page, 'staff-devices');
  });
});
