import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock.ts';
import { WEB_DIST } from '../../server/http/web-app.ts';
import { checkPage, launch, pairScreen, IN_BROWSER } from '../backoffice/browser.ts';
import { seedMenu, type Menu } from '../orders/fixtures.ts';
import { startHub, type TestHub } from '../helpers/server.ts';

/**
 * A guest at table 1 orders from a 390×844 phone by the table's QR code, against a real hub,
 * while the grill's kitchen screen (a paired 1280×800 tablet) shows what arrives and moves it.
 */
describe('QR ordering on a phone, seen by the kitchen', IN_BROWSER, () => {
  let hub: TestHub;
  let menu: Menu;
  let browser: Browser;
  let phone: BrowserContext;
  let guest: Page;
  let kitchen: Page;
  let token = '';
  let orderId = '';
  const requested: string[] = [];

  beforeAll(async () => {
    hub = await startHub('sqlite', { clock: new ManualClock(Date.now()) });
    menu = await seedMenu(hub);
    token = (await hub.api.post('/v1/qr_codes', { table: menu.table })).body.token;
    browser = await launch();
    phone = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-GB', isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    guest = await phone.newPage();
    guest.setDefaultTimeout(10_000);
    guest.on('request', (r) => requested.push(r.url()));
    const tablet = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    kitchen = await tablet.newPage();
    kitchen.setDefaultTimeout(10_000);
    await pairScreen(kitchen, hub, { name: 'Grill tablet', station: 'grill' });
    await kitchen.getByText('No open tickets').waitFor();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await hub?.close();
  });

  const ordersAtTable = async () => (await hub.api.get(`/v1/orders?table=${menu.table}&limit=100`)).body.data as { id: string; items: { round: number }[] }[];

  it('shows the venue, the table and the orderable menu with prices from the server', async () => {
    await guest.goto(`${hub.url}/qr/${token}`);
    await guest.getByRole('heading', { level: 1, name: 'Test Bistro' }).waitFor();
    await guest.getByText('Table 1').waitFor();
    await guest.getByRole('button', { name: /Steak.*€29\.90/ }).waitFor();
    await guest.getByRole('button', { name: /Carbonara.*€14\.50/ }).waitFor();
    // sold out and retired items are not offered
    expect(await guest.getByText('Tiramisu').count()).toBe(0);
    expect(await guest.getByText('Old dish').count()).toBe(0);
    await checkPage(guest, 'qr-menu');
  });

  it('stops an item until its required modifier is chosen and keeps the bounds', async () => {
    await guest.getByRole('button', { name: /^Steak/ }).click();
    const sheet = guest.getByRole('dialog', { name: 'Steak' });
    await sheet.getByRole('button', { name: /^Add to order/ }).click();
    await sheet.getByRole('alert').filter({ hasText: 'Choose at least 1 for “Doneness”.' }).waitFor();
    await sheet.getByLabel('Rare').check();
    for (const extra of ['Parmesan', 'Chili']) await sheet.getByLabel(extra).check();
    // "up to 2": a third tick is refused as it is tapped, and said beside the group
    await sheet.getByLabel('Truffle').click();
    const extras = sheet.getByRole('group', { name: /Extras/ });
    await extras.getByRole('status').filter({ hasText: 'Up to 2 for “Extras”: untick one to choose another.' }).waitFor();
    expect(await sheet.getByLabel('Truffle').isChecked()).toBe(false);
    await checkPage(guest, 'qr-item-sheet-max');
    // untick one, and another may be ticked; the note goes
    await sheet.getByLabel('Chili').uncheck();
    await expect.poll(() => extras.locator('.mod-note').textContent()).toBe('');
    await sheet.getByLabel('Truffle').check();
    await sheet.getByLabel('Truffle').uncheck();
    await sheet.getByLabel('Chili').check();
    await sheet.getByRole('button', { name: 'One more' }).click();
    await sheet.getByLabel('Note for the kitchen (optional)').fill('no salt');
    await checkPage(guest, 'qr-item-sheet');
    // the kitchen raises the steak to 30.90 while the phone still shows the menu it loaded: the
    // cart is priced by the hub as the order will be, (30.90 + 1.50 + 0.50) × 2, not added up here
    expect((await hub.api.patch(`/v1/menu_items/${menu.steak}`, { price: 3090 })).status).toBe(200);
    // the hub is too busy to price the cart the first time: the bar says it has no price yet,
    // then asks again by itself and shows the hub's
    let refused = 0;
    await guest.route('**/public/qr/*/quote', (route) => (refused++ ? route.continue() : route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":{"type":"api_error","code":"internal_error","message":"busy"}}' })));
    await sheet.getByRole('button', { name: 'Add to order', exact: true }).click();
    await guest.getByRole('button', { name: 'View order (2) · …' }).waitFor();
    await guest.getByRole('button', { name: 'View order (2) · €65.80' }).waitFor();
    expect(refused).toBe(2);
    await guest.unroute('**/public/qr/*/quote');
  });

  it('places the order once even when the first answer is lost, and the kitchen shows it', async () => {
    let cut = true;
    await guest.route(`**/public/qr/${token}/orders`, async (route) => {
      if (!cut) return route.continue();
      cut = false;
      await route.fetch(); // the hub takes the order; the phone never hears back
      await route.abort('failed');
    });
    await guest.getByRole('button', { name: /^View order/ }).click();
    const cart = guest.getByRole('dialog', { name: 'Your order' });
    await cart.getByLabel('Your name (optional)').fill('Ada');
    await cart.getByRole('button', { name: 'Place order · €65.80' }).waitFor();
    await checkPage(guest, 'qr-cart');
    await cart.getByRole('button', { name: /^Place order/ }).click();
    await guest.getByRole('heading', { name: /^Your order #/ }).waitFor();
    const orders = await ordersAtTable();
    expect(orders).toHaveLength(1);
    orderId = orders[0].id;
    const placed = (await hub.api.get(`/v1/orders/${orderId}`)).body;
    expect(placed).toMatchObject({ status: 'placed', source: 'qr', customer: { name: 'Ada' }, total: expect.any(Number) });
    // what the cart said is what the order costs; the steak goes back to the menu's 29.90
    expect(placed.subtotal).toBe(6580);
    await hub.api.patch(`/v1/menu_items/${menu.steak}`, { price: 2990 });
    await guest.getByText(`€${(placed.total / 100).toFixed(2)}`).waitFor();
    await guest.locator('[aria-current="step"]', { hasText: 'Received' }).waitFor();
    await checkPage(guest, 'qr-status');

    const ticket = kitchen.locator(`[data-order="${orderId}"]`);
    await ticket.getByText('2× Steak').waitFor();
    await ticket.getByText('no salt').waitFor();
  });

  it('sees "Being prepared" live when the kitchen taps the line', async () => {
    await kitchen.locator(`[data-order="${orderId}"] button.line`).first().click();
    await guest.locator('[aria-current="step"]', { hasText: 'Being prepared' }).waitFor();
  });

  it('orders more as a second round of the same order', async () => {
    await guest.getByRole('button', { name: 'Order more' }).click();
    await guest.getByRole('button', { name: /^Steak/ }).click();
    const sheet = guest.getByRole('dialog', { name: 'Steak' });
    await sheet.getByLabel('Medium').check();
    await sheet.getByRole('button', { name: /^Add to order/ }).click();
    await guest.getByRole('button', { name: /^View order/ }).click();
    await guest.getByRole('dialog', { name: 'Your order' }).getByRole('button', { name: /^Add to my order/ }).click();
    await guest.getByRole('heading', { name: /^Your order #/ }).waitFor();
    const orders = await ordersAtTable();
    expect(orders).toHaveLength(1);
    expect(orders[0].items.map((i) => i.round)).toEqual([1, 2]);
    await kitchen.locator(`[data-order="${orderId}"]`).getByText('Round 2').waitFor();
    await guest.getByText('1× Steak').waitFor();
  });

  it('a dish 86’d while it sits in the cart is named in words, taken out, and gone from the menu', async () => {
    await guest.getByRole('button', { name: 'Order more' }).click();
    await guest.getByRole('button', { name: /^Carbonara/ }).click();
    await guest.getByRole('dialog', { name: 'Carbonara' }).getByRole('button', { name: /^Add to order/ }).click();
    await guest.getByRole('button', { name: /^View order/ }).waitFor();
    // the kitchen runs out meanwhile
    expect((await hub.api.patch(`/v1/menu_items/${menu.pasta}`, { is_available: false })).status).toBe(200);
    await guest.getByRole('button', { name: /^View order/ }).click();
    await guest.getByRole('dialog', { name: 'Your order' }).getByRole('button', { name: /^Add to my order/ }).click();
    await guest.getByText('Sorry, Carbonara has just sold out. We took it out of your order.').waitFor();
    expect(await guest.locator('body').textContent()).not.toMatch(/\bmi_/);
    await expect.poll(() => guest.getByRole('button', { name: /^Carbonara/ }).count()).toBe(0);
    await hub.api.patch(`/v1/menu_items/${menu.pasta}`, { is_available: true });
  });

  it('asks nothing of any other host, and loads under 60 KB of JavaScript gzipped', async () => {
    const foreign = requested.filter((u) => !u.startsWith(hub.url) && !u.startsWith('ws://127.0.0.1') && !u.startsWith('data:'));
    expect(requested.length).toBeGreaterThan(3);
    expect(foreign).toEqual([]);
    // what guest.html loads at once: its entry script and the chunks it preloads
    const html = fs.readFileSync(path.join(WEB_DIST, 'guest.html'), 'utf8');
    const scripts = [...html.matchAll(/(?:src|href)="\/app(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    const gzipped = scripts.reduce((sum, s) => sum + fs.statSync(path.join(WEB_DIST, `${s}.gz`)).size, 0);
    console.log(`guest pages: first load ${(gzipped / 1024).toFixed(1)} KB of JavaScript gzipped`);
    expect(gzipped).toBeLessThan(60 * 1024);
  });

  it('has the table and its menu fetched while its scripts load, each once', async () => {
    const page = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
    const asked: string[] = [];
    page.on('request', (r) => asked.push(new URL(r.url()).pathname));
    const answer = await page.goto(`${hub.url}/qr/${token}`);
    expect(answer?.headers().link).toBe(`</public/qr/${token}>; rel=preload; as=fetch; crossorigin, </public/qr/${token}/menu>; rel=preload; as=fetch; crossorigin`);
    await page.getByRole('button', { name: /Steak/ }).first().waitFor();
    // the page's own fetches were answered by the preloads: no second request
    expect(asked.filter((p) => p === `/public/qr/${token}/menu`)).toHaveLength(1);
    expect(asked.filter((p) => p === `/public/qr/${token}`)).toHaveLength(1);
    // and a guest's id-less path is not taken as a token for a preload
    expect((await page.goto(`${hub.url}/r/test/feedback`))?.headers().link).toBeUndefined();
    await page.context().close();
  });

  it("speaks the phone's language", async () => {
    const de = await browser.newContext({ viewport: { width: 360, height: 740 }, locale: 'de-DE' });
    const page = await de.newPage();
    await page.goto(`${hub.url}/qr/${token}`);
    await page.getByText('Tisch 1').waitFor();
    await page.getByRole('button', { name: /Steak.*29,90\s€/ }).waitFor();
    await checkPage(page, 'qr-menu-de-360');
    await de.close();
  });
});
