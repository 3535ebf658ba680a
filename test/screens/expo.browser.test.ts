import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock.ts';
import { checkPage, IN_BROWSER, launch, pairScreen } from '../backoffice/browser.ts';
import { seedMenu, type Menu } from '../orders/fixtures.ts';
import { startHub, type ApiClient, type TestHub } from '../helpers/server.ts';

/** The pass in Chromium: lines of every station, an order highlighted once all is ready, "Served". */
describe('expo screen in the browser', IN_BROWSER, () => {
  let hub: TestHub;
  let menu: Menu;
  let till: ApiClient;
  let browser: Browser;
  let expo: Page;

  beforeAll(async () => {
    hub = await startHub('sqlite', { clock: new ManualClock(Date.now()) });
    menu = await seedMenu(hub);
    till = hub.api.withKey(hub.keys.widget);
    browser = await launch();
    expo = await (await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' })).newPage();
    expo.setDefaultTimeout(10_000);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await hub?.close();
  });

  it('a screen paired without a station chooses the expo, which follows every line to "Served"', async () => {
    await pairScreen(expo, hub, { name: 'Pass' });
    await expo.getByRole('heading', { name: 'Choose a screen' }).waitFor();
    await checkPage(expo, 'screens-choose');
    await expo.getByRole('link', { name: 'Expo' }).click();
    await expo.getByRole('heading', { level: 1, name: 'Expo' }).waitFor();

    const order = (
      await till.post('/public/orders', {
        type: 'dine-in',
        tableId: menu.table,
        items: [
          { menuItemId: menu.steak, quantity: 1, modifiers: ['Rare'] },
          { menuItemId: menu.pasta, quantity: 2 },
          { menuItemId: menu.water, quantity: 1 },
        ],
      })
    ).body;
    const ticket = expo.locator(`[data-order="${order.id}"]`);
    await ticket.getByText('Grill').waitFor();
    await ticket.getByText('Bar').waitFor();
    for (const i of [0, 1]) await till.patch(`/public/orders/${order.id}/items/${i}/status`, { status: 'ready' });
    await ticket.locator('li.line-ready').nth(1).waitFor();
    expect(await ticket.getByText('All ready').count()).toBe(0);
    await till.patch(`/public/orders/${order.id}/items/2/status`, { status: 'ready' });
    await ticket.getByText('All ready').waitFor();
    await checkPage(expo, 'expo');
    await ticket.getByRole('button', { name: 'Served' }).click();
    await ticket.waitFor({ state: 'detached' });
    expect((await till.get(`/public/orders/${order.id}`)).body.status).toBe('served');
  });

  it('shows each line’s note (an allergy stands out) and asks again before serving lines still cooking', async () => {
    await expo.goto(`${hub.url}/screens/expo`);
    await expo.getByRole('heading', { level: 1, name: 'Expo' }).waitFor();
    const order = (
      await till.post('/public/orders', {
        type: 'dine-in',
        tableId: menu.table,
        items: [
          { menuItemId: menu.pasta, quantity: 1, notes: 'Nut allergy' },
          { menuItemId: menu.water, quantity: 1 },
        ],
      })
    ).body;
    const ticket = expo.locator(`[data-order="${order.id}"]`);
    await ticket.locator('.line-note.allergy', { hasText: 'Nut allergy' }).waitFor();
    await till.patch(`/public/orders/${order.id}/items/1/status`, { status: 'ready' });
    await ticket.locator('li.line-ready').waitFor();
    // the pasta is still new at the kitchen: the first tap only warns
    await ticket.getByRole('button', { name: 'Served' }).click();
    await ticket.getByRole('alert').getByText('1 line is not ready yet.').waitFor();
    await checkPage(expo, 'expo-serve-anyway');
    expect((await till.get(`/public/orders/${order.id}`)).body.status).not.toBe('served');
    await ticket.getByRole('button', { name: 'Served anyway' }).click();
    await ticket.waitFor({ state: 'detached' });
    expect((await till.get(`/public/orders/${order.id}`)).body.status).toBe('served');
    // back to the chooser from the bar
    await expo.getByRole('link', { name: 'Screen chooser' }).click();
    await expo.getByRole('heading', { name: 'Choose a screen' }).waitFor();
  });

  it('an order placed after the first load but before the feed confirms the topic still shows', async () => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' })).newPage();
    page.setDefaultTimeout(10_000);
    await pairScreen(page, hub, { name: 'Pass 2' });
    await page.getByRole('heading', { name: 'Choose a screen' }).waitFor();
    // the screen's subscribe waits at a gate (a slow Wi-Fi) until the order below is in
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    await page.routeWebSocket(/\/realtime$/, (ws) => {
      const server = ws.connectToServer();
      ws.onMessage(async (m) => {
        if (String(m).includes('"subscribe"')) await gate;
        server.send(m);
      });
    });
    await page.getByRole('link', { name: 'Expo' }).click();
    await page.getByText('No open tickets').waitFor();
    const order = (
      await till.post('/public/orders', { type: 'dine-in', tableId: menu.table, items: [{ menuItemId: menu.water, quantity: 1 }] })
    ).body;
    open();
    await page.locator(`[data-order="${order.id}"]`).getByText('Bar').waitFor();
    await page.close();
  });
});
