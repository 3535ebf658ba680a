import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../server/logger.ts';
import { createServer, type ComandaServer } from '../../server/server.ts';
import { freshDatabase } from '../helpers/db.ts';
import { ApiClient } from '../helpers/server.ts';
import { checkPage, launch, shot, IN_BROWSER } from './browser.ts';

/**
 * The back office in a real browser against a real hub on loopback, through the UI only: a
 * fresh hub is set up, run for a service, and checked page by page (axe-core, touch targets,
 * a screenshot of each under .tmp/screenshots/). One browser for the file; the UI does not
 * depend on the database, so this runs on SQLite (the API under it is tested on both).
 */
describe('back office in the browser', IN_BROWSER, () => {
  let server: ComandaServer;
  let url: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let key = '';
  const password = 'a very good password';

  beforeAll(async () => {
    server = createServer({ database: await freshDatabase('sqlite'), logger: silentLogger, config: { rateLimit: false, guestRateLimit: false } });
    url = (await server.listen(0, '127.0.0.1')).url;
    browser = await launch();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const go = async (path: string, heading: string | RegExp) => {
    await page.goto(url + path);
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  };

  it('sets up a fresh hub from the hub itself and lands on Today', async () => {
    await page.goto(`${url}/`);
    await page.getByRole('heading', { name: 'Set up your restaurant' }).waitFor();
    await checkPage(page, 'setup');
    await page.getByLabel('Restaurant name').fill('Trattoria Test');
    await page.getByLabel('Time zone').selectOption('UTC');
    await page.getByLabel('Currency').selectOption('EUR');
    await page.getByLabel('Name', { exact: true }).fill('Ada Owner');
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Create and sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Today' }).waitFor();
    await expect.poll(() => page.locator('.stat-value').first().textContent()).toContain('€');
    await checkPage(page, 'today');
  });

  it('creates an API key whose secret, shown once, works', async () => {
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
    await page.getByRole('button', { name: 'New API key' }).click();
    await page.getByLabel('Name').fill('Test till');
    await checkPage(page, 'api-keys-new');
    await page.getByRole('button', { name: 'Create key' }).click();
    key = await page.locator('#new-secret').inputValue();
    expect(key).toMatch(/^sk_live_/);
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    await checkPage(page, 'api-keys');
    expect((await new ApiClient(url, key).get('/v1/settings')).body.name).toBe('Trattoria Test');
    await page.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => page.locator('#new-secret').count()).toBe(0);
    // revoking asks once more, then the key is dead
    const widget = (await new ApiClient(url, key).get('/v1/api_keys')).body.data.find((k: any) => k.name === 'Screens');
    await page.getByRole('button', { name: 'Revoke Screens' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke Screens' });
    await checkPage(page, 'api-keys-revoke');
    await confirm.getByRole('button', { name: 'Revoke' }).click();
    await page.locator('tr', { hasText: 'Screens' }).getByText(/revoked/).waitFor();
    expect((await new ApiClient(url, key).get(`/v1/api_keys`)).body.data.find((k: any) => k.id === widget.id).revoked_at).toBeGreaterThan(0);
  });

  it('builds a menu: a category, a modifier group, an item with it; 86 makes the API refuse it', async () => {
    await go('/app/menu?tab=categories', 'Menu');
    await page.getByRole('button', { name: 'New category' }).click();
    await page.getByLabel('Name').fill('Mains');
    await page.getByLabel('Available from').fill('00:00');
    await page.getByLabel('Available until').fill('23:59');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Mains').waitFor();
    await page.getByRole('button', { name: 'New category' }).click();
    await page.getByLabel('Name').fill('Pasta');
    await page.getByLabel('Inside').selectOption({ label: 'Mains' });
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('tr', { hasText: 'Pasta' }).waitFor();
    await checkPage(page, 'menu-categories');

    await page.getByRole('tab', { name: 'Modifier groups' }).click();
    await page.getByRole('button', { name: 'New modifier group' }).click();
    await page.getByLabel('Name').fill('Doneness');
    await page.getByLabel('Choice 1').fill('Rare');
    await page.getByRole('button', { name: 'Add a choice' }).click();
    await page.getByLabel('Choice 2').fill('Well done');
    await page.getByLabel('Surcharge').nth(1).fill('1.50');
    await checkPage(page, 'menu-group-dialog');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Rare, Well done (+€1.50)').waitFor();
    await checkPage(page, 'menu-groups');

    await page.getByRole('tab', { name: 'Items' }).click();
    await page.getByRole('button', { name: 'New item' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Steak');
    await page.getByLabel('Category').selectOption({ label: 'Mains' });
    await page.getByLabel('Price').fill('24.50');
    await page.getByLabel('Allergens').fill('mustard');
    await page.getByLabel('Doneness').check();
    await page.getByLabel('Name (DE)').fill('Rindersteak');
    await checkPage(page, 'menu-item-dialog');
    await page.getByRole('button', { name: 'Save' }).click();
    const row = page.locator('tr', { hasText: 'Steak' });
    await row.getByText('€24.50 · Doneness').waitFor();

    const api = new ApiClient(url, key);
    const item = (await api.get('/v1/menu_items')).body.data[0];
    expect(item).toMatchObject({ name: 'Steak', price: 2450, allergens: ['mustard'], translations: { de: { name: 'Rindersteak' } } });
    const order = { type: 'takeout', items: [{ menu_item: item.id, quantity: 1, modifiers: ['Rare'] }] };
    expect((await api.post('/v1/orders', order)).status).toBe(201);

    // the 86 switch, with the keyboard: focus it and press Space
    const toggle = row.getByRole('switch', { name: 'Available' });
    await toggle.focus();
    await page.keyboard.press('Space');
    await row.getByRole('switch', { name: '86 — sold out' }).waitFor();
    await checkPage(page, 'menu-items');
    const refused = await api.post('/v1/orders', order);
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('menu_item_unavailable');
  });

  it('adds a table and prints its QR sheet', async () => {
    await go('/app/floor', 'Floor');
    await page.getByRole('button', { name: 'New table' }).click();
    await page.getByLabel('Table number').fill('12');
    await page.getByLabel('Seats').fill('4');
    await page.getByLabel('Zone').fill('Terrace');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('tr', { hasText: '12' }).getByText('QR code').waitFor();
    await checkPage(page, 'floor');
    await page.getByRole('link', { name: 'QR sheet' }).click();
    const card = page.locator('.qr-card', { hasText: 'Table 12' });
    await card.getByRole('img', { name: 'QR code for table 12' }).waitFor();
    await expect.poll(() => card.textContent()).toContain('Trattoria Test');
    await checkPage(page, 'floor-qr-sheet');
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('.sidenav').isVisible()).toBe(false);
    await shot(page, 'floor-qr-sheet-print');
    await page.emulateMedia({ media: 'screen' });
  });

  it('sets opening hours and books a reservation in the day book', async () => {
    await go('/app/settings', 'Settings');
    for (const day of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']) {
      const group = page.getByRole('group', { name: day });
      await group.getByLabel('Opens').fill('00:00');
      await group.getByLabel('Closes').fill('23:45');
    }
    await page.getByRole('button', { name: 'Save' }).first().click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    await checkPage(page, 'settings');

    await go('/app/reservations', 'Reservations');
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel('Date').fill(tomorrow);
    await page.getByRole('button', { name: 'New reservation' }).click();
    await page.getByLabel('Guest name').fill('Grace Hopper');
    await page.getByLabel('Guests', { exact: true }).fill('4');
    await page.getByLabel('Time').selectOption('19:00');
    await checkPage(page, 'reservations-new');
    await page.getByRole('button', { name: 'Book' }).click();
    const booking = page.locator('.booking', { hasText: 'Grace Hopper' });
    await booking.waitFor();
    await expect.poll(() => booking.textContent()).toContain('19:00');
    await expect.poll(() => booking.textContent()).toContain('Confirmed');
    // moved to a later time from the day book
    await booking.click();
    const details = page.getByRole('dialog', { name: /Grace Hopper/ });
    await details.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Time').selectOption('21:00');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => booking.textContent()).toContain('21:00');
    await checkPage(page, 'reservations');
    // one tap at the door
    await booking.click();
    await checkPage(page, 'reservations-booking');
    await details.getByRole('button', { name: 'Arrived' }).click();
    await expect.poll(() => booking.textContent()).toContain('Arrived');
    await details.getByRole('button', { name: 'Close' }).click();
  });

  it('adds a walk-in to the waitlist and seats it', async () => {
    await go('/app/waitlist', 'Waitlist');
    await page.getByRole('button', { name: 'Add walk-in' }).click();
    await page.getByLabel('Guest name').fill('Party of Lin');
    await page.getByLabel('Guests').fill('3');
    await page.getByRole('button', { name: 'Add to the queue' }).click();
    const row = page.locator('.queue-row', { hasText: 'Party of Lin' });
    await row.getByText('Walk-in').waitFor();
    await checkPage(page, 'waitlist');
    await row.getByRole('button', { name: 'Seat: Party of Lin' }).click();
    // Seat asks for a table (free ones that fit are offered); this party goes to the bar
    await page.getByRole('dialog', { name: /^Seat Party of Lin/ }).getByRole('button', { name: 'Seat without a table' }).click();
    await page.getByText('Nobody is waiting.').waitFor();
  });

  it('shows an order placed through the API on the live board without a reload, and its detail', async () => {
    await go('/app/orders', 'Orders');
    await page.locator('.live-banner').waitFor({ state: 'detached' });
    const api = new ApiClient(url, key);
    const item = (await api.get('/v1/menu_items')).body.data[0];
    await api.patch(`/v1/menu_items/${item.id}`, { is_available: true });
    const table = (await api.get('/v1/tables')).body.data[0];
    const made = await api.post('/v1/orders', { type: 'dine_in', table: table.id, customer_name: 'Board Test', items: [{ menu_item: item.id, quantity: 2, modifiers: ['Well done'] }] });
    await api.patch(`/v1/orders/${made.body.id}`, { status: 'placed' });
    const card = page.locator(`[data-order="${made.body.id}"]`);
    await card.waitFor();
    await expect.poll(() => card.textContent()).toContain('table 12');
    await checkPage(page, 'orders-board');
    // it moves on the board as it moves in the API
    await api.patch(`/v1/orders/${made.body.id}`, { status: 'ready' });
    await card.getByText('Ready').waitFor();
    await card.getByRole('link').click();
    await page.getByRole('heading', { level: 1, name: `Order #${made.body.order_number}` }).waitFor();
    await page.getByText('Well done').waitFor();
    await checkPage(page, 'order-detail');
    await page.getByRole('button', { name: 'Mark Served' }).click();
    await page.locator('.page-header .badge', { hasText: 'Served' }).waitFor();
    await page.getByRole('button', { name: 'Cancel order' }).click();
    await page.getByLabel('Reason (shown in the order history)').fill('Guest left');
    await checkPage(page, 'order-cancel-dialog');
    await page.getByRole('button', { name: 'Cancel the order' }).click();
    await page.getByText('Guest left').waitFor();
    await go('/app/orders?view=history', 'Orders');
    await page.getByLabel('Customer').fill('board');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.locator('table.data').getByText(`#${made.body.order_number}`).waitFor();
    await checkPage(page, 'orders-history');
  });

  it('shows "offline — reconnecting" when the live feed drops, and catches up by seq after', async () => {
    await go('/app/orders', 'Orders');
    await page.locator('.live-banner').waitFor({ state: 'detached' });
    const rt = server.services.realtime!;
    const accept = rt.sockets.handleUpgrade.bind(rt.sockets);
    // the hub goes away: live sockets cut, reconnects refused
    rt.sockets.handleUpgrade = (_req, socket) => (socket.destroy(), true);
    for (const c of [...rt.hub.clients]) c.terminate();
    try {
      await page.getByRole('status').filter({ hasText: 'Offline — reconnecting…' }).waitFor();
      await shot(page, 'orders-offline');
      // an order placed while the board is offline
      const api = new ApiClient(url, key);
      const item = (await api.get('/v1/menu_items')).body.data[0];
      const made = await api.post('/v1/orders', { type: 'takeout', customer_name: 'While Offline', items: [{ menu_item: item.id, quantity: 1, modifiers: ['Rare'] }] });
      await api.patch(`/v1/orders/${made.body.id}`, { status: 'placed' });
      rt.sockets.handleUpgrade = accept;
      await page.locator(`[data-order="${made.body.id}"]`).waitFor({ timeout: 20_000 });
      await page.locator('.live-banner').waitFor({ state: 'detached' });
    } finally {
      rt.sockets.handleUpgrade = accept;
    }
  }, 90_000); // 90 s: Chromium and a hub on a shared 2-core box, through several pages

  it('works from the keyboard: skip link, menu, tabs', async () => {
    await go('/app/', 'Today');
    await page.keyboard.press('Tab');
    await expect.poll(() => page.evaluate('document.activeElement.textContent')).toBe('Skip to content');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate('document.activeElement.id')).toBe('main');
    await page.getByRole('navigation').getByRole('link', { name: 'Orders' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor();
    await page.getByRole('tab', { name: 'Live board' }).focus();
    await page.keyboard.press('ArrowRight');
    await page.getByRole('tab', { name: 'History', selected: true }).waitFor();
    await expect.poll(() => page.evaluate('document.activeElement.textContent')).toBe('History');
    // a dialog opens from the keyboard, traps focus, and Escape closes it
    await go('/app/floor', 'Floor');
    await page.getByRole('button', { name: 'New table' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'New table' }).waitFor();
    // it opens on its first field, not on Close, and gives focus back to its opener
    await expect.poll(() => page.evaluate('document.activeElement.tagName')).toBe('INPUT');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    await expect.poll(() => page.evaluate('document.activeElement.textContent')).toBe('New table');
    // closed before the browser painted it (a busy tablet, a quick Escape), by an Escape the
    // page holds back to close the dialog itself: the page drops the dialog while it is still
    // modal, when the page outside it refuses focus. The same hand-back.
    const shown = await page.evaluate(async () => {
      // run in the page: its globals are reached through globalThis
      const doc = (globalThis as any).document;
      doc.activeElement.click();
      // Preact renders on a microtask: the dialog opens and closes within this one task
      for (let i = 0; i < 20 && !doc.querySelector('dialog[open]'); i++) await Promise.resolve();
      const opened = !!doc.querySelector('dialog[open]');
      doc.querySelector('dialog').dispatchEvent(new Event('cancel', { cancelable: true }));
      return opened;
    });
    expect(shown).toBe(true);
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    await expect.poll(() => page.evaluate('document.activeElement.textContent')).toBe('New table');
    // a dialog the page drops once its work is done (Save) hands focus back too: the page
    // unmounts it while it is still modal, when everything outside it is inert
    await page.keyboard.press('Enter');
    await page.getByLabel('Table number').fill('14');
    await page.keyboard.press('Enter');
    await page.locator('tr', { hasText: '14' }).waitFor();
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    await expect.poll(() => page.evaluate('document.activeElement.textContent')).toBe('New table');
  });

  it('removing a webhook endpoint asks first', async () => {
    const api = new ApiClient(url, key);
    const made = await api.post('/v1/webhook_endpoints', { url: 'https://hooks.example.com/comanda', enabled_events: ['order.created'] });
    expect(made.status).toBe(201);
    await go('/app/webhooks', 'Webhooks');
    const remove = page.getByRole('button', { name: 'Remove: https://hooks.example.com/comanda' });
    await remove.click();
    const confirm = page.getByRole('dialog', { name: 'Remove https://hooks.example.com/comanda?' });
    await confirm.waitFor();
    // Cancel is where focus starts: an Enter pressed by habit removes nothing
    await expect.poll(() => page.evaluate('document.activeElement.textContent')).toBe('Cancel');
    await checkPage(page, 'webhook-remove-confirm');
    await page.keyboard.press('Enter');
    await confirm.waitFor({ state: 'hidden' });
    expect((await api.get('/v1/webhook_endpoints')).body.data).toHaveLength(1);
    await remove.click();
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await expect.poll(async () => (await api.get('/v1/webhook_endpoints')).body.data.length).toBe(0);
  });

  it('every other page opens cleanly for the owner, also on a tablet', async () => {
    const pages: [string, string][] = [
      ['/app/guests', 'Guests'],
      ['/app/analytics', 'Analytics'],
      ['/app/staff', 'Staff'],
      ['/app/printers', 'Printers'],
      ['/app/webhooks', 'Webhooks'],
      ['/app/account', 'Your account'],
    ];
    for (const [path, title] of pages) {
      await go(path, title);
      await checkPage(page, path.slice(5).replace(/\//g, '-'));
    }
    await go('/app/analytics', 'Analytics');
    await page.getByLabel('Group by').selectOption('week');
    await page.locator('.chart .u-legend').first().waitFor();
    await checkPage(page, 'analytics-weeks');
    await page.setViewportSize({ width: 768, height: 1024 });
    for (const [path, title] of [
      ['/app/', 'Today'],
      ['/app/orders', 'Orders'],
      ['/app/menu', 'Menu'],
      ['/app/reservations', 'Reservations'],
    ] as const) {
      await go(path, title);
      await checkPage(page, `tablet-${path.slice(5).replace(/\//g, '-') || 'today'}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });

    // a staff member's own language: the whole UI and its money follow it
    await go('/app/account', 'Your account');
    await page.getByLabel('Language').selectOption('de');
    await page.getByRole('heading', { level: 1, name: 'Ihr Konto' }).waitFor();
    await go('/app/menu', 'Speisekarte');
    await page.locator('tr', { hasText: 'Steak' }).getByText(/24,50\s€/).waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe('de');
    await checkPage(page, 'menu-items-de');
    await go('/app/account', 'Ihr Konto');
    await page.getByLabel('Sprache').selectOption('');
    await page.getByRole('heading', { level: 1, name: 'Your account' }).waitFor();
  }, 120_000); // eleven pages, each through axe: on a loaded box this alone nears 60 s

  it('a server’s session is refused the keys page and the keys API; signing out ends it', async () => {
    await go('/app/staff', 'Staff');
    await page.getByRole('button', { name: 'New staff member' }).click();
    await page.getByLabel('Name').fill('Sam Server');
    await page.getByLabel('Email').fill('sam@example.com');
    await page.getByLabel('Role').selectOption('server');
    await page.getByLabel('Password').fill('sam has a password');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('tr', { hasText: 'Sam Server' }).getByText('Can sign in').waitFor();
    await page.getByRole('button', { name: 'Sign out' }).first().click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await checkPage(page, 'login');
    // the sign-in page, loaded afresh, asks nothing it knows will be refused (no 401 in the console)
    const refusals: string[] = [];
    const onResponse = (r: { status(): number; url(): string }) => void (r.status() >= 400 && refusals.push(`${r.status()} ${r.url()}`));
    page.on('response', onResponse);
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    page.off('response', onResponse);
    expect(refusals).toEqual([]);

    await page.getByLabel('Email').fill('sam@example.com');
    await page.getByLabel('Password').fill('sam has a password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor();
    const nav = await page.getByRole('navigation').textContent();
    expect(nav).not.toContain('API keys');
    expect(nav).not.toContain('Staff');
    await go('/app/api-keys', 'Not for your role');
    await checkPage(page, 'forbidden');
    const api = await page.evaluate(async () => {
      const r = await fetch('/v1/api_keys');
      return { status: r.status, body: await r.json() };
    });
    expect(api).toMatchObject({ status: 403, body: { error: { code: 'insufficient_scope' } } });

    // a form on another site (another port of this address is same-site, so the cookie goes along) is refused
    const evil = http.createServer((_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end(`<form method="post" action="${url}/v1/waitlist" enctype="text/plain"><input name='{"guest_name":"x","party_size":2,"a":"' value='"}'></form><script>document.forms[0].submit()</script>`);
    });
    await new Promise<void>((r) => evil.listen(0, '127.0.0.1', () => r()));
    try {
      const answer = page.waitForResponse((r) => r.url() === `${url}/v1/waitlist` && r.request().method() === 'POST');
      await page.goto(`http://127.0.0.1:${(evil.address() as AddressInfo).port}/`);
      const res = await answer;
      expect(res.status()).toBe(403);
      expect(await res.text()).toContain('csrf_token_invalid');
    } finally {
      evil.close();
    }
    expect((await new ApiClient(url, key).get('/v1/waitlist?status=waiting')).body.data).toHaveLength(0);

    await page.goto(`${url}/app/orders`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    const after = await page.evaluate(async () => (await fetch('/v1/auth/session')).status);
    expect(after).toBe(401);

    // the kitchen sees its screens only: the orders and the menu, read-only
    const owner = new ApiClient(url, key);
    const cook = await owner.post('/v1/staff', { name: 'Kim Kitchen', email: 'kim@example.com', role: 'kitchen' });
    await owner.post(`/v1/staff/${cook.body.id}/password`, { password: 'kim has a password' });
    await page.getByLabel('Email').fill('kim@example.com');
    await page.getByLabel('Password').fill('kim has a password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor();
    expect(await page.getByRole('navigation').getByRole('link').allTextContents()).toEqual(['Orders', 'Menu']);
    await go('/app/menu', 'Menu');
    await expect.poll(() => page.getByRole('button', { name: 'New item' }).count()).toBe(0);
    expect(await page.getByRole('switch', { name: 'Available' }).isDisabled()).toBe(true);
    await checkPage(page, 'kitchen-menu');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  });
});
