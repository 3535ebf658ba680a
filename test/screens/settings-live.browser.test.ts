import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock.ts';
import { checkPage, launch, IN_BROWSER } from '../backoffice/browser.ts';
import { seedMenu, type Menu } from '../orders/fixtures.ts';
import { startHub, type TestHub } from '../helpers/server.ts';

/**
 * Settings changes reach the open pages without a reload, through /realtime: Settings →
 * Screens shows a tablet the moment it pairs (and drops the spent code), and a kitchen screen
 * takes new ticket colours the moment they are saved. The hub's clock is the real time (the
 * tickets' ages run on the tablet's clock).
 */
describe('settings reach open pages live', IN_BROWSER, () => {
  let hub: TestHub;
  let menu: Menu;
  let browser: Browser;
  let manager: Page;
  let tablet: Page;

  beforeAll(async () => {
    hub = await startHub('sqlite', { clock: new ManualClock(Date.now()) });
    menu = await seedMenu(hub);
    browser = await launch();
    const office = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    manager = await office.newPage();
    manager.setDefaultTimeout(10_000);
    const setup = await office.request.post(`${hub.url}/v1/auth/setup`, {
      data: { restaurant_name: 'Test Bistro', timezone: 'UTC', currency: 'eur', owner_name: 'Ada Owner', owner_email: 'ada@example.com', owner_password: 'a very good password' },
    });
    expect(setup.status()).toBeLessThan(300);
    tablet = await (await browser.newContext({ viewport: { width: 800, height: 1280 }, locale: 'en-GB' })).newPage();
    tablet.setDefaultTimeout(10_000);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await hub?.close();
  });

  const screensCard = () => manager.locator('section', { has: manager.getByRole('heading', { name: 'Screens (kitchen, expo)' }) });

  it('Settings → Screens lists a tablet as it pairs and as it is unpaired elsewhere, without a reload', async () => {
    await manager.goto(`${hub.url}/app/settings`);
    const card = screensCard();
    await card.getByText('No paired screens yet.').waitFor();
    await card.getByLabel('Device name').fill('Grill tablet');
    await card.getByLabel('Opens on').selectOption({ label: 'Grill' });
    await card.getByRole('button', { name: 'Make pairing code' }).click();
    const shown = (await card.getByRole('status').filter({ hasText: 'Code for “Grill tablet”' }).textContent())!;
    const code = /: (\d{6}) \(/.exec(shown)![1]!;

    await tablet.goto(`${hub.url}/screens/pair`);
    await tablet.getByLabel('Pairing code').fill(code);
    await tablet.getByRole('button', { name: 'Pair' }).click();
    await tablet.waitForURL(/\/screens\/kitchen\/grill$/);

    // the manager's page, untouched: the tablet is listed and the spent code is gone
    await card.locator('.device-row', { hasText: 'Grill tablet' }).getByRole('button', { name: 'Unpair' }).waitFor();
    await expect.poll(() => card.getByText('No paired screens yet.').count()).toBe(0);
    await expect.poll(() => card.getByRole('status').filter({ hasText: code }).count()).toBe(0);
    await checkPage(manager, 'settings-screens-live-paired');

    // unpaired from another place (here the API): the row says so at once
    const device = (await hub.api.get('/v1/devices')).body.data[0];
    expect((await hub.api.delete(`/v1/devices/${device.id}`)).status).toBe(200);
    await card.locator('.device-row', { hasText: 'Grill tablet' }).getByText('unpaired', { exact: false }).waitFor();
    await expect.poll(() => card.locator('.device-row', { hasText: 'Grill tablet' }).getByRole('button', { name: 'Unpair' }).count()).toBe(0);
  });

  it('new ticket colours saved in Settings turn an open kitchen ticket without a reload', async () => {
    // pair again (the last one was unpaired)
    const made = await hub.api.post('/v1/devices/pairing_codes', { name: 'Grill tablet 2', station: 'grill' });
    await tablet.goto(`${hub.url}/screens/pair?code=${made.body.code}`);
    if (!/\/screens\/kitchen\/grill$/.test(tablet.url())) {
      await tablet.getByLabel('Pairing code').fill(made.body.code);
      await tablet.getByRole('button', { name: 'Pair' }).click();
    }
    await tablet.waitForURL(/\/screens\/kitchen\/grill$/);
    // a ticket five minutes old: green under the default 8 and 15 minutes
    hub.clock.set(Date.now() - 5 * 60_000);
    const placed = await hub.api.withKey(hub.keys.widget).post('/public/orders', { type: 'dine-in', tableId: menu.table, items: [{ menuItemId: menu.steak, quantity: 1, modifiers: ['Rare'] }] });
    hub.clock.set(Date.now());
    expect(placed.status).toBe(201);
    const ticket = tablet.locator(`[data-order="${placed.body.id}"]`);
    await ticket.waitFor();
    expect(await ticket.getAttribute('class')).toContain('ticket-ok');

    await manager.reload();
    const card = screensCard();
    await card.getByLabel('Grill: amber after').fill('2');
    await card.getByLabel('Grill: red after').fill('4');
    await card.getByRole('button', { name: 'Save colours' }).click();
    await expect.poll(() => ticket.getAttribute('class')).toContain('ticket-late');
    await card.getByLabel('Grill: red after').fill('30');
    await card.getByRole('button', { name: 'Save colours' }).click();
    await expect.poll(() => ticket.getAttribute('class')).toContain('ticket-warn');
    await checkPage(tablet, 'kds-colours-live');
  });
});
