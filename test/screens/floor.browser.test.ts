import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock.ts';
import { checkPage, launch, IN_BROWSER } from '../backoffice/browser.ts';
import { seedMenu, type Menu } from '../orders/fixtures.ts';
import { startHub, type ApiClient, type TestHub } from '../helpers/server.ts';
import { until } from '../helpers/until.ts';

/** The floor plan on a manager's tablet (the back office's sign-in), live from orders and bookings. */
describe('floor screen in the browser', IN_BROWSER, () => {
  let hub: TestHub;
  let menu: Menu;
  let till: ApiClient;
  let browser: Browser;
  let floor: Page;

  beforeAll(async () => {
    hub = await startHub('sqlite', { clock: new ManualClock(Date.now()) });
    menu = await seedMenu(hub);
    till = hub.api.withKey(hub.keys.widget);
    browser = await launch();
    const tablet = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    floor = await tablet.newPage();
    floor.setDefaultTimeout(10_000);
    await floor.goto(`${hub.url}/screens/floor`);
    await floor.getByText('Sign in to the back office on this tablet').waitFor();
    // the owner is made from the hub machine; the tablet then signs in through the screen's own link
    const setup = await fetch(`${hub.url}/v1/auth/setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ restaurant_name: 'Test Bistro', timezone: 'UTC', currency: 'eur', owner_name: 'Ada Owner', owner_email: 'ada@example.com', owner_password: 'a very good password' }),
    });
    expect(setup.status).toBeLessThan(300);
    await floor.getByRole('link', { name: /sign in/i }).click();
    await floor.getByLabel('Email').fill('ada@example.com');
    await floor.getByLabel('Password').fill('a very good password');
    await floor.getByRole('button', { name: 'Sign in' }).click();
    // back where the person came from, not on the orders board
    await floor.waitForURL(`${hub.url}/screens/floor`);
    const all = { open: '00:00', close: '23:59' };
    await hub.api.patch('/v1/settings', { opening_hours: Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, [all]])) });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await hub?.close();
  });

  it('colours tables by state with the next booking and the open total, live', async () => {
    const soon = new Date(Date.now() + 30 * 60_000);
    const booking = await hub.api.post('/v1/reservations', {
      guest_name: 'Grace',
      party_size: 2,
      date: soon.toISOString().slice(0, 10),
      time: soon.toISOString().slice(11, 16),
      table: menu.table2,
    });
    expect(booking.status).toBe(201);
    await floor.goto(`${hub.url}/screens/floor`);
    const t1 = floor.locator('[data-table="1"]');
    const t2 = floor.locator('[data-table="2"]');
    await t1.getByText('Free').waitFor();
    await t2.getByText('Reserved soon').waitFor();
    await t2.getByText(/Next \d\d:\d\d · Grace \(2\)/).waitFor();

    const order = (await till.post('/public/orders', { type: 'dine-in', tableId: menu.table, items: [{ menuItemId: menu.pasta, quantity: 2 }] })).body;
    await t1.getByText('Order open').waitFor();
    // the open total as the server priced it (what the tile showed instead, should it not come)
    const total = `€${(order.total / 100).toFixed(2)}`;
    await until(`table 1 showing ${total}`, async () => (await t1.textContent())?.includes(total), { diagnose: async () => ({ tile: await t1.textContent(), order: order.total }) });
    await checkPage(floor, 'floor');
    await till.patch(`/public/orders/${order.id}/status`, { status: 'served' });
    await t1.getByText('Waiting for the bill').waitFor();
    await t1.click();
    const dialog = floor.getByRole('dialog', { name: 'Table 1' });
    await dialog.getByText('2× Carbonara').waitFor();
    await dialog.getByRole('link', { name: 'Open the order' }).waitFor();
    await checkPage(floor, 'floor-table');
  });
});
