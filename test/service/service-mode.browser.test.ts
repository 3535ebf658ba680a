import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRecord } from '../../server/db/records.ts';
import { newId, PREFIXES } from '../../server/ids.ts';
import { checkPage, launch, OWNER, shot, IN_BROWSER } from '../backoffice/browser.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { seedMenu, type Menu } from '../orders/fixtures.ts';

/**
 * Service mode on a tablet (issue 41): the PIN pad, the floor and a check filling the screen at
 * 1024×768 and 800×1280, a dish 86'd while a round is rung in, the void and modifier sheets, the
 * keyboard's focus, and a fresh tablet's quiet console.
 */
describe('service mode on a tablet', IN_BROWSER, () => {
  let hub: TestHub;
  let menu: Menu;
  let browser: Browser;
  let tablet: BrowserContext;
  let page: Page;
  const tableIds: Record<number, string> = {};
  const errors: string[] = [];

  beforeAll(async () => {
    hub = await startHub('sqlite');
    menu = await seedMenu(hub);
    await hub.server.services.tx.run(async (trx) => {
      for (const n of [5, 7]) {
        const row = await insertRecord(trx, 'tables', {
          id: newId(PREFIXES.table, hub.clock.now()), restaurant_id: hub.restaurant.id, number: n, capacity: 4, min_capacity: 1, zone: 'Room', status: 'available', is_active: 1, created: 0, updated: 0,
        });
        tableIds[n] = row.id;
      }
    });
    browser = await launch();
    tablet = await browser.newContext({ viewport: { width: 1024, height: 768 }, locale: 'en-GB' });
    const setup = await tablet.request.post(`${hub.url}/v1/auth/setup`, {
      data: { restaurant_name: 'Osteria Nuova', timezone: 'UTC', currency: 'eur', owner_name: OWNER.name, owner_email: OWNER.email, owner_password: OWNER.password },
    });
    expect(setup.status()).toBeLessThan(300);
    await tablet.request.post(`${hub.url}/v1/auth/logout`, { headers: { 'x-csrf-token': (await setup.json()).csrf_token } });
    for (const [name, role, pin] of [['Sam Manager', 'manager', '2468'], ['Tina Server', 'server', '1357']] as const) {
      const s = await hub.api.post('/v1/staff', { name, email: `${name.split(' ')[0]!.toLowerCase()}@example.com`, role });
      expect(s.status, JSON.stringify(s.body)).toBe(201);
      expect((await hub.api.post(`/v1/staff/${s.body.id}/pin`, { pin })).status).toBe(200);
    }
    page = await tablet.newPage();
    page.setDefaultTimeout(10_000);
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  }, 90_000); // 90 s: Chromium and a hub on a shared 2-core box, set up once for the suite
  afterAll(async () => {
    await browser?.close();
    await hub?.close();
  });

  /** Taps the PIN on the pad's keys. */
  const pinIn = async (name: string, pin: string) => {
    await page.getByRole('button', { name }).click();
    const pad = page.getByRole('group', { name: 'PIN keys' });
    for (const digit of pin) await pad.getByRole('button', { name: digit, exact: true }).click();
    await page.getByRole('button', { name: 'Sign in' }).click();
  };

  it('a fresh tablet logs no error before sign-in; Manager sign-in comes back to Service, and the PIN pad shows the venue, big names and keys', async () => {
    await page.goto(`${hub.url}/app/service`);
    await page.getByText(/PIN sign-in works on a tablet a manager has signed in/).waitFor();
    await page.waitForLoadState('networkidle');
    expect(errors).toEqual([]);

    await page.getByRole('link', { name: 'Manager sign-in' }).click();
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Allow PIN sign-in on this tablet' }).click();
    expect(new URL(page.url()).pathname).toBe('/app/service');
    await page.getByText('This tablet now takes staff PINs.').waitFor();
    await page.getByRole('button', { name: 'Lock' }).click();

    await page.getByText('Osteria Nuova').waitFor();
    await page.getByRole('button', { name: 'Tina Server' }).waitFor();
    const tile = await page.getByRole('button', { name: 'Tina Server' }).boundingBox();
    expect(tile!.height).toBeGreaterThanOrEqual(90);
    await page.getByRole('button', { name: 'Tina Server' }).click();
    await checkPage(page, 'service-pin-pad');
    await page.keyboard.press('Escape');
    await pinIn('Tina Server', '1357');
    await page.locator('[data-table="5"]').waitFor();
    // a reload of a trusted tablet asks for its names without a 401 either
    await page.getByRole('button', { name: 'Lock' }).click();
    await page.reload();
    await page.getByRole('button', { name: 'Tina Server' }).waitFor();
    expect(errors).toEqual([]);
  });

  it('service mode fills the tablet: no back-office menu, the back office one tap away for a manager', async () => {
    await pinIn('Sam Manager', '2468');
    await page.locator('[data-table="5"]').waitFor();
    expect(await page.locator('.sidenav').count()).toBe(0);
    await page.getByRole('link', { name: 'Back office' }).click();
    // a PIN session does service work only (issue 40): the back office it reaches is the pages of its scopes, with the menu
    await page.waitForURL((u) => !u.pathname.startsWith('/app/service'));
    await page.locator('h1').first().waitFor();
    await page.goto(`${hub.url}/app/service`);
    await page.locator('[data-table="5"]').waitFor();
    await page.getByRole('button', { name: 'Lock' }).click();
  });

  /** Every control inside the viewport's width and no check line past two rows. */
  const fits = async (what: string) => {
    const found = await page.evaluate(() => {
      const d = (globalThis as any).document;
      const w = (globalThis as any).innerWidth;
      const outside: string[] = [];
      for (const el of d.querySelectorAll('button, a:not(.skip-link), input, select, textarea')) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 && r.height === 0) continue;
        if (r.left < -0.5 || r.right > w + 0.5) outside.push(`${(el.textContent || el.getAttribute('aria-label') || el.tagName).trim().slice(0, 30)} ${Math.round(r.left)}–${Math.round(r.right)}`);
      }
      const tall: string[] = [];
      // two rows: the dish (with its price on a sent line), then its seat or course and state
      // (with its buttons on a sent line); the dish and the state each one line of text
      const mid = (el: any) => { const r = el.getBoundingClientRect(); return r.top + r.height / 2; };
      for (const li of d.querySelectorAll('.check-lines li')) {
        const name = li.querySelector('.line-name');
        const meta = li.querySelector('.line-meta');
        const texts = [name, meta].filter((c: any) => c && c.getBoundingClientRect().height > 0);
        const wrapped = texts.some((c: any) => c.getBoundingClientRect().height / parseFloat((globalThis as any).getComputedStyle(c).lineHeight || '20') > 1.5);
        const price = li.querySelector('.line-price');
        const actions = li.querySelector('.line-actions');
        const apart = (price && Math.abs(mid(price) - mid(name)) > 25) || (actions && meta && Math.abs(mid(actions) - mid(meta)) > 25);
        if (wrapped || apart) tall.push(li.textContent.trim().slice(0, 40));
      }
      return { outside, tall, scroll: d.documentElement.scrollWidth - w };
    });
    expect(found.outside, `${what}: controls outside the viewport`).toEqual([]);
    expect(found.tall, `${what}: check lines past two rows`).toEqual([]);
    expect(found.scroll, `${what}: page wider than the viewport`).toBeLessThanOrEqual(0);
  };

  it('a check at 1024×768 and 800×1280: every line two rows at most, every control inside the screen', async () => {
    const mods = [{ group: menu.doneness, name: 'Medium' }, { group: menu.extras, name: 'Parmesan' }, { group: menu.extras, name: 'Truffle' }];
    const o = await hub.api.post('/v1/orders', {
      type: 'dine_in', table: tableIds[7], status: 'placed',
      items: [
        { menu_item: menu.steak, quantity: 2, seat: 1, course: 1, modifiers: mods, notes: 'sauce on the side' },
        { menu_item: menu.pasta, quantity: 1, seat: 2, course: 2, modifiers: [{ group: menu.extras, name: 'Parmesan' }, { group: menu.extras, name: 'Chili' }] },
        { menu_item: menu.water, quantity: 3, seat: 3, course: 1 },
      ],
    });
    expect(o.status, JSON.stringify(o.body)).toBe(201);
    expect((await hub.api.post(`/v1/orders/${o.body.id}/items/1/discount`, { percent: 10, reason: 'regulars who come every single week' })).status).toBe(200);
    await pinIn('Sam Manager', '2468');
    await page.locator('[data-table="7"]').click();
    await page.getByRole('heading', { name: 'Table 7' }).waitFor();
    await page.locator('[data-line="2"]').waitFor();
    await checkPage(page, 'service-mode-1024');
    await fits('1024×768');
    await page.setViewportSize({ width: 800, height: 1280 });
    await checkPage(page, 'service-mode-800');
    await fits('800×1280');
    await page.setViewportSize({ width: 1024, height: 768 });
  });

  it("Enter on a table and Send keep the focus on the page, not on <body>", async () => {
    await page.getByRole('button', { name: 'Floor' }).click();
    await page.locator('[data-table="5"]').focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Table 5' }).waitFor();
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.tagName)).not.toBe('BODY');
    await page.getByRole('button', { name: /^Water/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('button', { name: 'Send' }).focus();
    await page.keyboard.press('Enter');
    await page.locator('[data-line="0"]').waitFor();
    await expect.poll(() => page.evaluate(() => (globalThis as any).document.activeElement?.tagName)).toBe('H2');
  });

  it("an 86'd dish is marked and off on the grid at once; a round with one sends the rest and says which was refused", async () => {
    // rung in while it was still on: a carbonara and a water
    await page.getByRole('button', { name: /^Carbonara/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('button', { name: /^Water/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Add', exact: true }).click();
    // the kitchen 86es it from another device: the grid follows, live
    expect((await hub.api.patch(`/v1/menu_items/${menu.pasta}`, { is_available: false })).status).toBe(200);
    const tile = page.getByRole('button', { name: /^Carbonara/ });
    await tile.getByText('86 — sold out').waitFor();
    expect(await tile.isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('alert').getByText(/Carbonara is no longer available/).waitFor();
    await shot(page, 'service-86-refused');
    // the water went; the carbonara stays, marked, until it is removed
    const id = (await hub.api.get(`/v1/orders?table=${tableIds[5]}&status=placed`)).body.data[0].id as string;
    expect((await hub.api.get(`/v1/orders/${id}`)).body.items.map((l: any) => l.name)).toEqual(['Water', 'Water']);
    await page.getByText('Not sent').waitFor();
    await page.getByRole('button', { name: 'Remove Carbonara' }).click();
    expect(await page.getByRole('alert').count()).toBe(0);
    expect((await hub.api.patch(`/v1/menu_items/${menu.pasta}`, { is_available: true })).status).toBe(200);
    await expect.poll(() => tile.isDisabled()).toBe(false);
  });

  it('the modifier sheet says "Choose 1" and refuses a third pick in an "up to 2" group with a note', async () => {
    await page.getByRole('button', { name: /^Steak/ }).click();
    const sheet = page.getByRole('dialog');
    await sheet.getByText('Doneness · Choose 1', { exact: true }).waitFor();
    await sheet.getByText('Extras · Up to 2', { exact: true }).waitFor();
    for (const m of ['Parmesan', 'Chili', 'Truffle']) await sheet.getByRole('button', { name: new RegExp(`^${m}`) }).click();
    await sheet.getByText('Up to 2 for “Extras”: untick one to choose another.').waitFor();
    const pressed = async (m: string) => sheet.getByRole('button', { name: new RegExp(`^${m}`) }).getAttribute('aria-pressed');
    expect([await pressed('Parmesan'), await pressed('Chili'), await pressed('Truffle')]).toEqual(['true', 'true', 'false']);
    // a single choice still switches
    await sheet.getByRole('button', { name: 'Rare' }).click();
    await sheet.getByRole('button', { name: 'Medium' }).click();
    expect(await sheet.getByRole('button', { name: 'Rare' }).getAttribute('aria-pressed')).toBe('false');
    await checkPage(page, 'service-modifiers-full');
    await page.keyboard.press('Escape');
  });

  it("a server's void without the manager's PIN, then with a wrong one: the sheet stays open with the reason", async () => {
    await page.getByRole('button', { name: 'Lock' }).click();
    await pinIn('Tina Server', '1357');
    await page.locator('[data-table="5"]').click();
    await page.locator('[data-line="0"]').getByRole('button', { name: 'Void' }).click();
    const sheet = page.getByRole('dialog');
    await sheet.getByLabel('Why is it voided?').fill('spilled on the way');
    await sheet.getByRole('button', { name: 'Void' }).click();
    await sheet.getByRole('alert').waitFor();
    expect(await sheet.getByLabel('Why is it voided?').inputValue()).toBe('spilled on the way');
    await sheet.getByLabel(/Manager PIN/).fill('1357');
    await sheet.getByRole('button', { name: 'Void' }).click();
    // the second refusal's own words (the first one's also name a manager), so its request is over
    await sheet.getByRole('alert').getByText(/not a manager/i).waitFor();
    expect(await sheet.getByLabel('Why is it voided?').inputValue()).toBe('spilled on the way');
    await checkPage(page, 'service-void-refused');
    await sheet.getByLabel(/Manager PIN/).fill('2468');
    await sheet.getByRole('button', { name: 'Void' }).click();
    await page.locator('[data-line="0"]').getByText(/Voided/).waitFor();
    expect(await sheet.isVisible()).toBe(false);
  });
});
