import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock.ts';
import { IN_BROWSER, launch, pairScreen, shot } from '../backoffice/browser.ts';
import { seedMenu, type Menu } from '../orders/fixtures.ts';
import { startHub, type TestHub } from '../helpers/server.ts';

/**
 * A check merged into another, a line voided, a check completed: the grill screen and the expo
 * follow at once, with no reload (issue 41, item 1: the grill kept "#2 · Table 5" after a merge).
 */
describe('kitchen and expo screens after a merge, a void and a completion', IN_BROWSER, () => {
  let hub: TestHub;
  let menu: Menu;
  let browser: Browser;
  let grill: Page;
  let expo: Page;

  beforeAll(async () => {
    hub = await startHub('sqlite', { clock: new ManualClock(Date.now()) });
    menu = await seedMenu(hub);
    browser = await launch();
    const open = async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
      await context.addInitScript("localStorage.setItem('comanda.sound', 'off')");
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      return page;
    };
    grill = await open();
    await pairScreen(grill, hub, { name: 'Grill tablet', station: 'grill' });
    await grill.getByText('No open tickets').waitFor();
    expo = await open();
    await pairScreen(expo, hub, { name: 'Pass' });
    await expo.getByRole('link', { name: 'Expo' }).click();
    await expo.getByRole('heading', { level: 1, name: 'Expo' }).waitFor();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await hub?.close();
  });

  const check = async (table: string, items: unknown[]) => {
    hub.clock.set(Date.now());
    const r = await hub.api.post('/v1/orders', { type: 'dine_in', table, items, status: 'placed' });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body as { id: string; order_number: string };
  };

  it('a merged check leaves both screens and its grill line follows to the check it went into', async () => {
    const into = await check(menu.table, [{ menu_item: menu.steak, quantity: 1, modifiers: [{ group: menu.doneness, name: 'Medium' }] }]);
    const from = await check(menu.table2, [{ menu_item: menu.steak, quantity: 2, modifiers: [{ group: menu.doneness, name: 'Rare' }] }, { menu_item: menu.pasta, quantity: 1 }]);
    for (const page of [grill, expo]) {
      await page.locator(`[data-order="${from.id}"]`).waitFor();
      await page.locator(`[data-order="${into.id}"]`).waitFor();
    }
    const merged = await hub.api.post(`/v1/orders/${into.id}/merge`, { from: from.id });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    for (const page of [grill, expo]) {
      await page.locator(`[data-order="${from.id}"]`).waitFor({ state: 'detached' });
      // the merged lines are on the kept check's ticket
      await expect.poll(() => page.locator(`[data-order="${into.id}"] li`).filter({ hasText: 'Steak' }).count()).toBe(2);
    }
    await shot(grill, 'kds-after-merge');

    // a voided line leaves the grill's ticket; the completed check leaves both screens
    expect((await hub.api.post(`/v1/orders/${into.id}/items/0/void`, { reason: 'burnt' })).status).toBe(200);
    await expect.poll(() => grill.locator(`[data-order="${into.id}"] li`).filter({ hasText: 'Steak' }).count()).toBe(1);
    expect((await hub.api.patch(`/v1/orders/${into.id}`, { status: 'completed' })).status).toBe(200);
    for (const page of [grill, expo]) await page.locator(`[data-order="${into.id}"]`).waitFor({ state: 'detached' });
    await grill.getByText('No open tickets').waitFor();
  });

  it('the Recall list survives a reload of the station screen', async () => {
    const o = await check(menu.table, [{ menu_item: menu.steak, quantity: 1, modifiers: [{ group: menu.doneness, name: 'Rare' }] }]);
    const card = grill.locator(`[data-order="${o.id}"]`);
    await card.getByRole('button', { name: 'Bump' }).click();
    await card.waitFor({ state: 'detached' });
    await grill.getByRole('button', { name: 'Recall (1)' }).waitFor();
    await grill.reload();
    await grill.getByText('No open tickets').waitFor();
    await grill.getByRole('button', { name: 'Recall (1)' }).click();
    await card.getByText('Recalled').waitFor();
  });
});
