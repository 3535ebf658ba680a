import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock.ts';
import { checkPage, launch, setUpVenue, signIn, IN_BROWSER } from '../backoffice/browser.ts';
import { seedMenu, type Menu } from '../orders/fixtures.ts';
import { startHub, type TestHub } from '../helpers/server.ts';

/**
 * Tax is said one way per language on every surface (issue 41.14), driven by the rule the order
 * was priced under: on a tax-inclusive venue the guest's status page read "Subtotal 44,00 / IVA
 * 4,62 / Total 44,00" (a wrong-looking sum), the tablet "incl. tax" and the receipt "incl. VAT".
 * Now: inclusive, "IVA incluido" after the total; on top, "más IVA" as a line of the sum.
 */
describe('tax wording on the guest page, the tablet check and the order page', IN_BROWSER, () => {
  let hub: TestHub;
  let menu: Menu;
  let browser: Browser;
  const money = (n: number) => new Intl.NumberFormat('es-ES', { style: 'currency', currency: 'EUR' }).format(n / 100);

  beforeAll(async () => {
    hub = await startHub('sqlite', { clock: new ManualClock(Date.now()) });
    await setUpVenue(hub.url, 'Casa Pepe');
    menu = await seedMenu(hub);
    expect((await hub.api.patch('/v1/settings', { prices_include_tax: true })).status).toBe(200);
    browser = await launch();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await hub?.close();
  });

  /** A guest's order from the table's QR code, and the guest's phone showing its status page. */
  const guestStatus = async (table: string) => {
    const token = (await hub.api.post('/v1/qr_codes', { table })).body.token as string;
    const placed = await hub.api.withKey(null).post(`/public/qr/${token}/orders`, { items: [{ menuItemId: menu.pasta, quantity: 2 }, { menuItemId: menu.water, quantity: 1 }] });
    expect(placed.status, JSON.stringify(placed.body)).toBeLessThan(300);
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'es-ES', isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    // the phone that placed it: the page opens on the order's status
    await phone.addInitScript(([key, id]) => (globalThis as any).localStorage.setItem(key!, id!), [`comanda.qr.${token}`, placed.body.id as string]);
    const page = await phone.newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(`${hub.url}/qr/${token}`);
    await page.locator('dl.totals').waitFor();
    const order = (await hub.api.get(`/v1/orders/${placed.body.id}`)).body;
    const rows = await page.locator('dl.totals').evaluate((dl) => [...dl.querySelectorAll('dt')].map((dt) => `${dt.textContent} ${dt.nextElementSibling?.textContent}`));
    return { page, order, rows };
  };

  it('a tax-inclusive venue: the guest sees the total, then the tax inside it; never a tax line between two equal sums', async () => {
    const { page, order, rows } = await guestStatus(menu.table);
    expect(order.prices_include_tax).toBe(true);
    expect(order.total).toBe(order.subtotal);
    expect(rows).toEqual([`Total ${money(order.total)}`, `IVA incluido ${money(order.tax_amount)}`]);
    await checkPage(page, 'qr-status-tax-included');
    await page.context().close();
  });

  it('the tablet check and the order page say it in the same words', async () => {
    // signed in on the English page; the venue's language (Spanish) is the owner's from then on
    const context = await browser.newContext({ viewport: { width: 1024, height: 768 }, locale: 'en-GB' });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await signIn(page, hub.url);
    expect((await hub.api.patch('/v1/settings', { language: 'es' })).status).toBe(200);
    const order = (await hub.api.get(`/v1/orders?table=${menu.table}`)).body.data[0];

    await page.goto(`${hub.url}/app/orders/${order.id}`);
    const foot = page.locator('tfoot');
    await foot.getByText('IVA incluido').waitFor();
    const lines = await foot.locator('tr').evaluateAll((trs) => trs.map((tr) => tr.textContent));
    // the total, then the tax inside it (no tax line above the total)
    expect(lines.slice(-2)).toEqual([`Total${money(order.total)}`, `IVA incluido${money(order.tax_amount)}`]);
    expect(lines.join('|')).not.toContain('más IVA');

    await page.goto(`${hub.url}/app/service`);
    const tableNo = (await hub.api.get(`/v1/tables/${menu.table}`)).body.number;
    await page.locator(`[data-table="${tableNo}"]`).click();
    const total = page.locator('.check-total');
    await expect.poll(() => total.textContent()).toContain(`IVA incluido ${money(order.tax_amount)}`);
    expect(await page.locator('.check-tax').count()).toBe(0);
    await checkPage(page, 'service-check-tax-included');
    await context.close();
    await hub.api.patch('/v1/settings', { language: 'en' });
  });

  it('tax on top: the guest sees the subtotal, the tax added and the total', async () => {
    expect((await hub.api.patch('/v1/settings', { prices_include_tax: false })).status).toBe(200);
    const { page, order, rows } = await guestStatus(menu.table2);
    expect(order.prices_include_tax).toBe(false);
    expect(order.total).toBe(order.subtotal + order.tax_amount);
    expect(rows).toEqual([`Subtotal ${money(order.subtotal)}`, `más IVA ${money(order.tax_amount)}`, `Total ${money(order.total)}`]);
    await checkPage(page, 'qr-status-tax-on-top');
    await page.context().close();
  });
});
