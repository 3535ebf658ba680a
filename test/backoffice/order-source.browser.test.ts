import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestHub } from '../helpers/server.ts';
import { seedMenu } from '../orders/fixtures.ts';
import { signedInHub, IN_BROWSER } from './browser.ts';

/** An order rung in by staff says so in words on its page, never as a key (issue 41, item 14: "Taken via: source.staff"). */
describe("an order's source in the browser", IN_BROWSER, () => {
  let hub: TestHub;
  let page: Page;
  let close = async () => {};

  beforeAll(async () => {
    ({ hub, page, close } = await signedInHub('Chez Ada'));
  }, 60_000);
  afterAll(() => close());

  it('shows "Taken via Staff" for an order a staff session made', async () => {
    const menu = await seedMenu(hub);
    const csrf = (await page.context().cookies()).find((c) => c.name === 'comanda_csrf')!.value;
    const made = await page.request.post(`${hub.url}/v1/orders`, { headers: { 'x-csrf-token': csrf }, data: { type: 'takeout', items: [{ menu_item: menu.water, quantity: 1 }] } });
    expect(made.status()).toBe(201);
    const order = await made.json();
    expect(order.source).toBe('staff');
    await page.goto(`${hub.url}/app/orders/${order.id}`);
    const taken = page.locator('dt', { hasText: 'Taken via' }).locator('xpath=following-sibling::dd[1]');
    await expect.poll(() => taken.textContent()).toBe('Staff');
    expect(await page.getByText('source.').count()).toBe(0);
  });
});
