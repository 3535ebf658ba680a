import type { Browser, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { launch } from '../backoffice/browser.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { seedMenu, type Menu } from '../orders/fixtures.ts';

/**
 * A service tablet against a fresh hub, shared by the pay-from-the-table browser tests: the
 * menu and two tables (seedMenu), the tablet set up as a PIN device, Mia Manager with PIN 2468,
 * and a receipt printer nobody listens on (Print bill queues its job there).
 */
export interface ServiceTablet {
  hub: TestHub;
  menu: Menu;
  browser: Browser;
  page: Page;
  /** the two tables' numbers (menu.table, menu.table2) */
  table1: number;
  table2: number;
  close(): Promise<void>;
}

/**
 * A Chromium tablet on the hub: the owner sets the hub up from it (or, on a hub that has its
 * owner already, `manager` signs in), trusts it as a PIN device once, then signs out, so the
 * page opens on the PIN pad.
 */
export async function trustedTablet(browser: Browser, hub: Pick<TestHub, 'url'>, viewport: { width: number; height: number }, manager?: { email: string; password: string }): Promise<Page> {
  const tablet = await browser.newContext({ viewport, locale: 'en-GB' });
  const page = await tablet.newPage();
  page.setDefaultTimeout(10_000);
  const signedIn = manager
    ? await tablet.request.post(`${hub.url}/v1/auth/login`, { data: manager })
    : await tablet.request.post(`${hub.url}/v1/auth/setup`, {
        data: { restaurant_name: 'Test Bistro', timezone: 'UTC', currency: 'eur', owner_name: 'Ada Owner', owner_email: 'ada@example.com', owner_password: 'a very good password' },
      });
  expect(signedIn.status()).toBeLessThan(300);
  const csrf = (await signedIn.json()).csrf_token;
  expect((await tablet.request.post(`${hub.url}/v1/auth/pin_device`, { headers: { 'x-csrf-token': csrf } })).status()).toBe(200);
  await tablet.request.post(`${hub.url}/v1/auth/logout`, { headers: { 'x-csrf-token': csrf } });
  return page;
}

export async function openServiceTablet(viewport: { width: number; height: number }): Promise<ServiceTablet> {
  const hub = await startHub('sqlite');
  const menu = await seedMenu(hub);
  const tables = (await hub.api.get('/v1/tables')).body.data as { id: string; number: number }[];
  const browser = await launch();
  const page = await trustedTablet(browser, hub, viewport);
  const mia = await hub.api.post('/v1/staff', { name: 'Mia Manager', email: 'mia@example.com', role: 'manager' });
  expect(mia.status, JSON.stringify(mia.body)).toBe(201);
  expect((await hub.api.post(`/v1/staff/${mia.body.id}/pin`, { pin: '2468' })).status).toBe(200);
  expect((await hub.api.post('/v1/printers', { name: 'Till', transport: { type: 'tcp', host: '127.0.0.1', port: 9 }, prints_receipts: true })).status).toBe(201);
  return {
    hub,
    menu,
    browser,
    page,
    table1: tables.find((x) => x.id === menu.table)!.number,
    table2: tables.find((x) => x.id === menu.table2)!.number,
    close: async () => {
      await browser.close();
      await hub.close();
    },
  };
}

/** Opens /app/service on `url` and signs `name` in with their PIN. */
export async function signInByPin(page: Page, url: string, name: string, pin: string): Promise<void> {
  await page.goto(`${url}/app/service`);
  await page.getByRole('button', { name }).click();
  await page.getByLabel('PIN', { exact: true }).fill(pin);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Opens /app/service and signs Mia Manager in with her PIN. */
export const signInMia = (t: ServiceTablet): Promise<void> => signInByPin(t.page, t.hub.url, 'Mia Manager', '2468');

/** The open check at a table, as the API has it. */
export const openCheckAt = async (hub: TestHub, tableId: string) =>
  (await hub.api.get(`/v1/orders?table=${tableId}`)).body.data.find((o: any) => !['cancelled', 'completed'].includes(o.status));

/** What the page shows for an amount, as the page formats it (en-GB, euro). */
export const eur = (minor: number) => new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'EUR' }).format(minor / 100);

/** The amount in a text as the page shows it (the last one: "Pay 1 item · €14.50" is 1450). */
export const amountShown = async (where: Locator) => Math.round(Number(/€([\d,]+\.\d\d)\s*$/.exec(((await where.textContent()) ?? '').trim())![1]!.replace(/,/g, '')) * 100);
