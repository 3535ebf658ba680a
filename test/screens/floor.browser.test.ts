import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock.ts';
import { checkPage, launch, IN_BROWSER } from '../backoffice/browser.ts';
import { seedMenu, type Menu } from '../orders/fixtures.ts';
import { startHub, type ApiClient, type TestHub } from '../helpers/server.ts';
import { until } from '../helpers/until.ts';
import { holdAnswers } from '../backoffice/late-answers.ts';

/** the page's reads of the orders list (a query always follows: the open statuses) */
const ORDERS_LIST = /\/v1\/orders\?/;

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

  /**
   * Two tables of this attempt's own, so a retry starts clean: the first attempt leaves a booking
   * and an open order behind at its tables (booking the same table again at the same time is a 409).
   */
  let lastNumber = 100;
  const freshTables = async () =>
    Promise.all(
      [++lastNumber, ++lastNumber].map(async (number) => {
        const made = await hub.api.post('/v1/tables', { number, capacity: 4 });
        expect(made.status).toBe(201);
        return { id: made.body.id as string, number, tile: floor.locator(`[data-table="${number}"]`) };
      }),
    );
  const placeOrder = async (table: string) => (await till.post('/public/orders', { type: 'dine-in', tableId: table, items: [{ menuItemId: menu.pasta, quantity: 2 }] })).body;
  /** the open total as the server priced it */
  const euros = (order: { total: number }) => `€${(order.total / 100).toFixed(2)}`;

  it('colours tables by state with the next booking and the open total, live', async () => {
    const [one, two] = await freshTables();
    const soon = new Date(Date.now() + 30 * 60_000);
    const booking = await hub.api.post('/v1/reservations', {
      guest_name: 'Grace',
      party_size: 2,
      date: soon.toISOString().slice(0, 10),
      time: soon.toISOString().slice(11, 16),
      table: two!.id,
    });
    expect(booking.status).toBe(201);
    await floor.goto(`${hub.url}/screens/floor`);
    const t1 = one!.tile;
    const t2 = two!.tile;
    await t1.getByText('Free').waitFor();
    await t2.getByText('Reserved soon').waitFor();
    await t2.getByText(/Next \d\d:\d\d · Grace \(2\)/).waitFor();

    const order = await placeOrder(one!.id);
    await t1.getByText('Order open').waitFor();
    const total = euros(order);
    await until(`the tile showing ${total}`, async () => (await t1.textContent())?.includes(total), { diagnose: async () => ({ tile: await t1.textContent(), order: order.total }) });
    await checkPage(floor, 'floor');
    await till.patch(`/public/orders/${order.id}/status`, { status: 'served' });
    await t1.getByText('Waiting for the bill').waitFor();
    await t1.click();
    const dialog = floor.getByRole('dialog', { name: `Table ${one!.number}` });
    await dialog.getByText('2× Carbonara').waitFor();
    await dialog.getByRole('link', { name: 'Open the order' }).waitFor();
    await checkPage(floor, 'floor-table');
  });

  /**
   * The page loads the open orders at once and again when the feed confirms it follows them; an
   * answer read before an order was placed can reach the page after that order's message did (a
   * slow answer on a busy hub: CI saw the tile lose its total). Here every answer the server gives
   * before the order is held back until the tile has shown the order, then let through, the
   * oldest last: the tile keeps the order, and its total.
   */
  it('keeps an order heard while an older load of the open orders is still on its way', async () => {
    const [one] = await freshTables();
    const tile = one!.tile;
    const late = await holdAnswers(floor, ORDERS_LIST);
    // the feed follows the orders from here on: the order's message reaches the page
    const followed = new Promise<void>((resolve) =>
      floor.once('websocket', (ws) => ws.on('framereceived', (f) => String(f.payload).includes('"type":"subscribed"') && resolve())),
    );
    try {
      await floor.goto(`${hub.url}/screens/floor`);
      await tile.getByText('Free').waitFor();
      await followed;
      await until('the loads so far answered by the server', late.answered, { diagnose: () => ({ held: late.count() }) });
      const order = await placeOrder(one!.id);
      late.stop();
      await tile.getByText('Order open').waitFor();
      const stale = late.count();
      await late.letThrough();
      const total = euros(order);
      await until(`the tile still showing ${total}`, async () => (await tile.textContent())?.includes(total), { diagnose: async () => ({ tile: await tile.textContent(), stale }) });
    } finally {
      await late.close();
    }
  });
});
