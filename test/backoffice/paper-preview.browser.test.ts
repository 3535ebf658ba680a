import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type TestHub } from '../helpers/server.ts';
import { seedMenu, type Menu } from '../orders/fixtures.ts';
import { checkPage, launch, OWNER, setUpVenue, IN_BROWSER } from './browser.ts';

/**
 * Paper without a printer, in Chromium against a real hub, through the UI: the owner adds a
 * virtual printer that prints receipts, prints a check's receipt from the order page, and
 * sees it under Printers → Recent print jobs → Preview as it would come out, its total (over
 * €100, once split over two lines) on one line.
 */
describe('a virtual printer and its paper in the browser', IN_BROWSER, () => {
  let hub: TestHub;
  let menu: Menu;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    hub = await startHub('sqlite');
    await setUpVenue(hub.url, 'Osteria Test');
    menu = await seedMenu(hub);
    browser = await launch();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' })).newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(`${hub.url}/app/login`);
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((u) => !u.pathname.endsWith('/login'));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await hub?.close();
  });

  /** The printed lines of the image shown (the SVG the page fetched, as its data: address), each without its spaces. */
  const previewLines = async (img: ReturnType<Page['locator']>) => {
    const src = (await img.getAttribute('src'))!;
    expect(src.startsWith('data:image/svg+xml')).toBe(true);
    const svg = decodeURIComponent(src.slice(src.indexOf(',') + 1));
    return svg.split(/<g transform="translate\(0,[\d.]+\)">/).map((line) => line.replace(/<[^>]+>/g, '').replace(/&#xa0;|\s/g, ''));
  };

  it('adds a virtual printer, prints a receipt on it and previews the paper with its total on one line', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Printers' }).click();
    await page.getByRole('heading', { level: 1, name: 'Printers' }).waitFor();
    await page.getByText('Nothing printed yet.').waitFor();
    await page.getByRole('button', { name: 'Add printer' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add printer' });
    await dialog.getByLabel('Name').fill('Paper');
    await dialog.getByLabel('Connection').selectOption({ label: 'Virtual printer (no paper)' });
    // no address to give: it prints nowhere
    expect(await dialog.getByLabel('Network address').count()).toBe(0);
    await dialog.getByLabel('Paper width').selectOption('58');
    const receipts = dialog.getByRole('switch', { name: 'Prints guest receipts' });
    await receipts.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => receipts.isChecked()).toBe(true);
    await checkPage(page, 'printers-virtual-new');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.locator('tr', { hasText: 'Paper' }).getByText('virtual, no paper').waitFor();
    expect((await hub.api.get('/v1/printers')).body.data[0]).toMatchObject({ name: 'Paper', transport: { type: 'virtual' }, paper_width: 58, prints_receipts: true });

    // four steaks and a carbonara: a total over €100
    const created = await hub.api.post('/v1/orders', {
      type: 'dine_in',
      table: menu.table,
      items: [
        { menu_item: menu.steak, quantity: 4, modifiers: ['Rare'] },
        { menu_item: menu.pasta, quantity: 1 },
      ],
      status: 'placed',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const total = ((await hub.api.get(`/v1/orders/${created.body.id}`)).body.total / 100).toFixed(2);
    expect(Number(total)).toBeGreaterThan(100);

    await page.goto(`${hub.url}/app/orders/${created.body.id}`);
    await page.getByRole('button', { name: 'Print receipt' }).first().click();
    await expect.poll(async () => (await hub.api.get(`/v1/print_jobs?order=${created.body.id}&kind=receipt`)).body.data.map((j: any) => j.state)).toEqual(['printed']);
    // the order's own list of what it printed: the receipt, printed, with its reprint beside it
    const orderJobs = page.getByRole('listitem').filter({ hasText: 'Receipt' }).filter({ hasText: 'printed' });
    await orderJobs.getByRole('button', { name: 'Reprint' }).waitFor();

    await page.getByRole('navigation').getByRole('link', { name: 'Printers' }).click();
    const jobs = page.locator('section', { has: page.getByRole('heading', { name: 'Recent print jobs' }) });
    const line = jobs.getByRole('listitem').filter({ hasText: 'Receipt · Paper' });
    await line.getByText('printed').waitFor();
    await line.getByRole('button', { name: /^Preview: Receipt, Paper/ }).click();
    const preview = page.getByRole('dialog', { name: 'Receipt on Paper' });
    const img = preview.getByRole('img', { name: 'Receipt on Paper, as it prints' });
    await img.waitFor();
    await expect.poll(() => img.evaluate((el) => (el as any).complete && (el as any).naturalWidth)).toBe(384);
    const lines = await previewLines(img);
    expect(lines).toContain(`TOTALEUR${total}`);
    expect(lines).toContain('Osteria Test'.replace(/\s/g, ''));
    expect(lines.some((l) => /^4xSteak/.test(l))).toBe(true);
    await checkPage(page, 'printers-virtual-preview');

    await preview.getByRole('button', { name: 'Close' }).click();
    await preview.waitFor({ state: 'hidden' });
    await checkPage(page, 'printers-virtual-jobs');
  });
});
