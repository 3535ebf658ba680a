import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock.ts';
import { checkPage, launch, shot, IN_BROWSER } from '../backoffice/browser.ts';
import { seedMenu, type Menu } from '../orders/fixtures.ts';
import { startHub, type ApiClient, type TestHub } from '../helpers/server.ts';

/**
 * The grill's kitchen screen in Chromium against a real hub: paired with a code, fed by the
 * API, tapped on one tablet and seen on another, cut off and brought back. The server's clock
 * is the real time (the ticket timers run on the tablet's clock); it is moved back only to
 * place an order that is already old.
 */
describe('kitchen display in the browser', IN_BROWSER, () => {
  let hub: TestHub;
  let menu: Menu;
  let till: ApiClient;
  let browser: Browser;
  let context: BrowserContext;
  let grill: Page;
  let second: Page;
  let deviceId = '';

  beforeAll(async () => {
    hub = await startHub('sqlite', { clock: new ManualClock(Date.now()) });
    menu = await seedMenu(hub);
    till = hub.api.withKey(hub.keys.widget);
    browser = await launch();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    grill = await context.newPage();
    grill.setDefaultTimeout(10_000);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await hub?.close();
  });

  const now = () => hub.clock.set(Date.now());
  const place = async (items: object[], extra: object = {}) => {
    now();
    const r = await till.post('/public/orders', { type: 'dine-in', tableId: menu.table, items, ...extra });
    expect(r.status).toBe(201);
    return r.body as { id: string; orderNumber: string };
  };
  const kitchenIds = async () =>
    ((await till.get('/public/orders/kitchen?station=grill')).body.data as { id: string }[]).map((o) => o.id).sort();
  const shownIds = async (page: Page) => (await page.locator('article.ticket').evaluateAll((els) => els.map((e) => e.getAttribute('data-order')!))).sort();

  it('a manager makes a pairing code in Settings; the tablet pairs with it and opens the grill screen', async () => {
    const office = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    const manager = await office.newPage();
    manager.setDefaultTimeout(10_000);
    const setup = await office.request.post(`${hub.url}/v1/auth/setup`, {
      data: { restaurant_name: 'Test Bistro', timezone: 'UTC', currency: 'eur', owner_name: 'Ada Owner', owner_email: 'ada@example.com', owner_password: 'a very good password' },
    });
    expect(setup.status()).toBeLessThan(300);
    await manager.goto(`${hub.url}/app/settings`);
    const card = manager.locator('section', { has: manager.getByRole('heading', { name: 'Screens (kitchen, expo)' }) });
    await card.getByLabel('Device name').fill('Grill tablet');
    await card.getByLabel('Opens on').selectOption({ label: 'Grill' });
    await card.getByRole('button', { name: 'Make pairing code' }).click();
    const shown = (await card.getByRole('status').filter({ hasText: 'Code for “Grill tablet”' }).textContent())!;
    const code = /: (\d{6}) \(/.exec(shown)![1];
    await card.getByRole('img', { name: 'Scan to pair' }).waitFor();
    await checkPage(manager, 'settings-screens');

    await grill.goto(`${hub.url}/screens/kitchen/grill`);
    await grill.getByRole('heading', { name: 'This screen is not paired' }).waitFor();
    await grill.getByRole('link', { name: 'Pair this screen' }).click();
    await grill.getByLabel('Pairing code').fill(code === '000000' ? '111111' : '000000');
    await grill.getByRole('button', { name: 'Pair' }).click();
    await grill.getByRole('alert').filter({ hasText: 'not valid' }).waitFor();
    await checkPage(grill, 'kds-pair');
    await grill.getByLabel('Pairing code').fill(code);
    await grill.getByRole('button', { name: 'Pair' }).click();
    await grill.waitForURL(/\/screens\/kitchen\/grill$/);
    await grill.getByRole('heading', { level: 1, name: 'Grill' }).waitFor();
    await grill.getByText('No open tickets').waitFor();
    expect(await grill.evaluate(() => (globalThis as any).localStorage.getItem('comanda.device'))).toContain('wk_live_');

    await manager.reload();
    await card.locator('.device-row', { hasText: 'Grill tablet' }).getByRole('button', { name: 'Unpair' }).waitFor();
    deviceId = (await hub.api.get('/v1/devices')).body.data[0].id;
    await office.close();
  });

  it('shows an order placed through the API at once, flashed as new, with only the grill lines', async () => {
    // the flash is watched from the page: it must come on, carry no animation (a fade repaints the
    // whole window every frame, a third of a screen's CPU on a box driving many), and go off again
    await grill.evaluate(() => {
      const w = globalThis as any;
      w.__flash = { on: 0, off: 0, animations: 0 };
      new w.MutationObserver((records: any[]) => {
        for (const r of records) {
          for (const n of r.addedNodes)
            if (n.classList?.contains('kflash')) {
              w.__flash.on++;
              w.__flash.animations += n.getAnimations().length;
            }
          for (const n of r.removedNodes) if (n.classList?.contains('kflash')) w.__flash.off++;
        }
      }).observe(w.document.querySelector('.kds'), { childList: true });
    });
    const started = Date.now();
    const order = await place(
      [
        { menuItemId: menu.steak, quantity: 2, modifiers: ['Rare', 'Chili'], notes: 'nut allergy' },
        { menuItemId: menu.pasta, quantity: 1 },
      ],
      { notes: 'Birthday, bring together' },
    );
    const ticket = grill.locator(`[data-order="${order.id}"]`);
    await ticket.waitFor();
    console.log(`KDS: order placed → ticket on screen in ${Date.now() - started} ms`);
    await expect.poll(() => ticket.getAttribute('class')).toContain('ticket-new');
    await ticket.getByText('2× Steak').waitFor();
    await ticket.getByText('Rare, Chili').waitFor();
    await ticket.locator('.line-note.allergy', { hasText: 'nut allergy' }).waitFor();
    await ticket.getByText('Birthday, bring together').waitFor();
    await ticket.getByText('Table 1').waitFor();
    expect(await ticket.getByText('Carbonara').count()).toBe(0);
    await grill.locator('.allday li', { hasText: 'Steak' }).getByText('2').waitFor();
    await expect.poll(() => grill.evaluate(() => (globalThis as any).__flash)).toEqual({ on: 1, off: 1, animations: 0 });
    await checkPage(grill, 'kds-grill');
    const chimes = () => grill.evaluate(() => Number((globalThis as any).document.documentElement.dataset.chimes ?? 0));
    expect(await chimes()).toBe(1);
    // switched off: the next ticket flashes without a sound
    await grill.getByRole('button', { name: 'Sound on' }).click();
    await grill.getByRole('button', { name: 'Sound off' }).waitFor();
    const quiet = await place([{ menuItemId: menu.steak, quantity: 1, modifiers: ['Rare'] }]);
    await expect.poll(() => grill.locator(`[data-order="${quiet.id}"]`).getAttribute('class')).toContain('ticket-new');
    expect(await chimes()).toBe(1);
    await grill.getByRole('button', { name: 'Sound off' }).click();
  });

  it('a tap moves the line on every screen and in the API; bump takes the ticket off, recall brings it back', async () => {
    second = await context.newPage();
    second.setDefaultTimeout(10_000);
    await second.goto(`${hub.url}/screens/kitchen/grill`);
    const order = await place([{ menuItemId: menu.steak, quantity: 1, modifiers: ['Medium'] }]);
    await second.locator(`[data-order="${order.id}"]`).waitFor();
    const line = grill.locator(`[data-order="${order.id}"] button.line`).first();
    await line.click();
    await second.locator(`[data-order="${order.id}"] .line-preparing`).waitFor();
    expect((await till.get(`/public/orders/${order.id}`)).body.items[0].status).toBe('preparing');
    expect((await till.get(`/public/orders/${order.id}`)).body.status).toBe('preparing');

    await second.locator(`[data-order="${order.id}"]`).getByRole('button', { name: 'Bump' }).click();
    await grill.locator(`[data-order="${order.id}"]`).waitFor({ state: 'detached' });
    await second.locator(`[data-order="${order.id}"]`).waitFor({ state: 'detached' });
    expect((await till.get(`/public/orders/${order.id}`)).body).toMatchObject({ status: 'ready', items: [{ status: 'ready' }] });

    await second.getByRole('button', { name: /^Recall/ }).click();
    const back = second.locator(`[data-order="${order.id}"]`);
    await back.getByText('Recalled').waitFor();
    await shot(second, 'kds-recalled');
    await back.getByRole('button', { name: 'Bump' }).click();
    await back.waitFor({ state: 'detached' });
    // and again: a ticket can be brought back as often as the pass needs
    await second.getByRole('button', { name: /^Recall/ }).click();
    await back.getByText('Recalled').waitFor();
    await back.getByRole('button', { name: 'Bump' }).click();
    await back.waitFor({ state: 'detached' });
    await second.close();
  });

  it('colours tickets by age with the station thresholds, and marks a new round', async () => {
    await hub.api.patch('/v1/stations/grill', { warn_after_minutes: 5, late_after_minutes: 10 });
    hub.clock.set(Date.now() - 12 * 60_000);
    const old = (await till.post('/public/orders', { type: 'takeout', customerName: 'Ada', items: [{ menuItemId: menu.steak, quantity: 1, modifiers: ['Rare'] }] })).body;
    hub.clock.set(Date.now() - 6 * 60_000);
    const middling = (await till.post('/public/orders', { type: 'dine-in', tableId: menu.table2, items: [{ menuItemId: menu.steak, quantity: 1, modifiers: ['Rare'] }] })).body;
    now();
    await grill.reload();
    await expect.poll(() => grill.locator(`[data-order="${old.id}"]`).getAttribute('class')).toContain('ticket-late');
    await expect.poll(() => grill.locator(`[data-order="${middling.id}"]`).getAttribute('class')).toContain('ticket-warn');
    await grill.locator(`[data-order="${old.id}"]`).getByText('Takeout · Ada').waitFor();
    // oldest first
    const ids = await grill.locator('article.ticket').evaluateAll((els) => els.map((e) => e.getAttribute('data-order')));
    expect(ids.indexOf(old.id)).toBeLessThan(ids.indexOf(middling.id));

    // a QR round on the middling order's table shows as new, "Round 2"
    const qr = await hub.api.post('/v1/qr_codes', { table: menu.table2 });
    now();
    const guestOrder = await hub.api.withKey(null).post(`/public/qr/${qr.body.token}/orders`, { items: [{ menuItemId: menu.steak, quantity: 1, modifiers: ['Rare'] }] });
    await grill.locator(`[data-order="${guestOrder.body.id}"]`).waitFor();
    await hub.api.withKey(null).post(`/public/qr/${qr.body.token}/orders/${guestOrder.body.id}/items`, { items: [{ menuItemId: menu.steak, quantity: 3, modifiers: ['Medium'] }] });
    const round = grill.locator(`[data-order="${guestOrder.body.id}"]`);
    await round.getByText('Round 2').waitFor();
    await round.getByText('3× Steak').waitFor();
    await checkPage(grill, 'kds-ages');
  });

  it('shows a banner while the feed is cut, keeps the timers running, and is exactly right after reconnecting', async () => {
    const rt = hub.server.services.realtime!;
    const accept = rt.sockets.handleUpgrade.bind(rt.sockets);
    const before = await shownIds(grill);
    const moved = before[0];
    rt.sockets.handleUpgrade = (_req, socket) => (socket.destroy(), true);
    for (const c of [...rt.hub.clients]) c.terminate();
    let fresh: { id: string };
    try {
      await grill.getByRole('status').filter({ hasText: 'Offline — reconnecting' }).waitFor();
      const age = grill.locator(`[data-order="${moved}"] .ticket-age`);
      const first = await age.textContent();
      await expect.poll(() => age.textContent(), { timeout: 5000 }).not.toBe(first);
      // meanwhile: a new order, one ticket finished elsewhere
      fresh = await place([{ menuItemId: menu.steak, quantity: 1, modifiers: ['Medium'] }]);
      const lines = (await till.get(`/public/orders/${moved}`)).body.items as { index: number; station: string; status: string }[];
      for (const l of lines) if (l.station === 'grill' && l.status !== 'ready' && l.status !== 'served') await till.patch(`/public/orders/${moved}/items/${l.index}/status`, { status: 'ready' });
      await shot(grill, 'kds-offline');
      expect(await grill.locator(`[data-order="${fresh.id}"]`).count()).toBe(0);
    } finally {
      rt.sockets.handleUpgrade = accept;
    }
    await grill.locator(`[data-order="${fresh!.id}"]`).waitFor({ timeout: 20_000 });
    await grill.getByRole('status').waitFor({ state: 'detached' });
    await grill.locator(`[data-order="${moved}"]`).waitFor({ state: 'detached' });
    expect(await shownIds(grill)).toEqual(await kitchenIds());
  }, 90_000); // 90 s: Chromium and a hub on a shared 2-core box, through several pages

  it('a device unpaired in Settings is asked to pair again', async () => {
    const key = JSON.parse((await grill.evaluate(() => (globalThis as any).localStorage.getItem('comanda.device'))) as string).key as string;
    expect((await hub.api.delete(`/v1/devices/${deviceId}`)).status).toBe(200);
    // a resolved key is trusted for a few seconds (the key cache): wait until the hub refuses it
    await expect.poll(async () => (await hub.api.withKey(key).get('/public/screens/config')).status, { timeout: 20_000, interval: 500 }).toBe(401);
    await grill.reload();
    await grill.getByRole('heading', { name: 'This screen is not paired' }).waitFor();
    await grill.getByText('unpaired in Settings').waitFor();
  }, 90_000); // 90 s: Chromium and a hub on a shared 2-core box, through several pages
});
