import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock.ts';
import { checkPage, launch, IN_BROWSER } from '../backoffice/browser.ts';
import { seedMenu, type Menu } from '../orders/fixtures.ts';
import { startHub, type TestHub } from '../helpers/server.ts';

/**
 * A guest's open menu on a 390×844 phone follows the kitchen: a dish 86'd leaves it without a
 * reload (pushed over /realtime, not the old once-a-minute read), and comes back the same way.
 * A dish 86'd while in the cart is refused by name (see qr-ordering.browser.test.ts).
 */
describe('an 86’d dish leaves an open guest menu live', IN_BROWSER, () => {
  let hub: TestHub;
  let menu: Menu;
  let browser: Browser;
  let guest: Page;
  let token = '';

  beforeAll(async () => {
    hub = await startHub('sqlite', { clock: new ManualClock(Date.now()) });
    menu = await seedMenu(hub);
    token = (await hub.api.post('/v1/qr_codes', { table: menu.table })).body.token;
    browser = await launch();
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-GB', isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    guest = await phone.newPage();
    guest.setDefaultTimeout(10_000);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await hub?.close();
  });

  it('takes the dish off the open menu when the kitchen 86s it, and puts it back', async () => {
    let loads = 0;
    guest.on('framenavigated', (f) => f === guest.mainFrame() && loads++);
    // the page follows the menu over /realtime: the kitchen acts once the hub has confirmed it
    const following = new Promise<void>((resolve) =>
      guest.on('websocket', (ws) => ws.on('framereceived', (f) => /"type":"subscribed"/.test(String(f.payload)) && /"menu"/.test(String(f.payload)) && resolve())),
    );
    await guest.goto(`${hub.url}/qr/${token}`);
    const carbonara = guest.getByRole('button', { name: /^Carbonara/ });
    await carbonara.waitFor();
    await following;
    expect((await hub.api.patch(`/v1/menu_items/${menu.pasta}`, { is_available: false })).status).toBe(200);
    await carbonara.waitFor({ state: 'detached' });
    await guest.getByRole('button', { name: /^Steak/ }).waitFor();
    await checkPage(guest, 'qr-menu-86-live');
    expect((await hub.api.patch(`/v1/menu_items/${menu.pasta}`, { is_available: true })).status).toBe(200);
    await carbonara.waitFor();
    expect(loads).toBe(1);
  });
});
