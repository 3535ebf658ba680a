import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, IN_BROWSER, OWNER, signedInHub } from './browser.ts';
import { addPrinter, drain, PrinterEmulator } from '../printers/fixtures.ts';
import type { TestHub } from '../helpers/server.ts';

/**
 * The Printers page follows its printers and jobs over /realtime, with no reload (issue 41,
 * item 10: "Not checked yet" after a good test page, "Receipt · printing" kept until a reload);
 * the printer's cash drawer is set in its dialog (item 11); a job's state and station are said
 * in words, in the reader's language (item 14: "printed" in German, "Küchenbon (kitchen)"); the
 * venue's switch for the tickets the hub missed (issue 44) is on the page.
 */
describe('printers page, live', IN_BROWSER, () => {
  let hub: TestHub;
  let browser: Browser;
  let page: Page;
  let close: () => Promise<void>;
  let emu: PrinterEmulator;
  let printerId: string;
  let navigations = 0;

  beforeAll(async () => {
    ({ hub, browser, page, close } = await signedInHub('Osteria Live'));
    emu = await PrinterEmulator.start();
    expect((await hub.api.post('/v1/stations', { key: 'grill', name: 'Grill' })).status).toBe(201);
    printerId = (await addPrinter(hub, emu, { name: 'Counter', stations: ['grill'], prints_receipts: true })).id;
    page.on('framenavigated', (f) => f === page.mainFrame() && navigations++);
  }, 60_000);
  afterAll(async () => {
    await close?.();
    await emu?.close();
  });

  const row = () => page.locator('tr', { hasText: 'Counter' });
  const jobs = () => page.locator('.job-line');
  const switchTo = async (scope: Locator, name: string, on: boolean) => {
    const sw = scope.getByRole('switch', { name });
    await sw.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => sw.isChecked()).toBe(on);
  };

  it('a test page shows the printer checked and the job printed, without a reload', async () => {
    await page.goto(`${hub.url}/app/printers`);
    await row().getByText('Not checked yet').waitFor();
    navigations = 0;
    await row().getByRole('button', { name: 'Print test page: Counter' }).click();
    await row().getByText('Online').waitFor();
    await jobs().filter({ hasText: 'Test page' }).getByText('Printed').waitFor();
    expect(emu.texts()).toHaveLength(1);
    expect(navigations).toBe(0);
  });

  it('a job sent from elsewhere appears, waits while the printer is out of paper, and prints when it is back', async () => {
    emu.setMode('paper_out');
    expect((await hub.api.post(`/v1/printers/${printerId}/test`, {})).status).toBeLessThan(300);
    await row().getByText('Out of paper').waitFor();
    await expect.poll(() => jobs().filter({ hasText: 'Queued' }).count()).toBe(1);
    emu.setMode('online');
    // past the retry's back-off, the queue's next pass
    hub.clock.advance(10 * 60_000);
    await drain(hub);
    await row().getByText('Online').waitFor();
    await expect.poll(() => jobs().filter({ hasText: 'Printed' }).count()).toBe(2);
    expect(navigations).toBe(0);
  });

  it("sets the printer's cash drawer in its dialog, on a receipt printer only", async () => {
    await row().getByRole('button', { name: 'Edit: Counter' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Counter' });
    await switchTo(dialog, 'Opens the cash drawer', true);
    await checkPage(page, 'printers-edit-drawer');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await hub.api.get(`/v1/printers/${printerId}`)).body.cash_drawer).toBe(true);

    await row().getByRole('button', { name: 'Edit: Counter' }).click();
    expect(await dialog.getByRole('switch', { name: 'Opens the cash drawer' }).isChecked()).toBe(true);
    // no receipts, no drawer: a cash payment opens the drawer with its receipt
    await switchTo(dialog, 'Prints guest receipts', false);
    expect(await dialog.getByRole('switch', { name: 'Opens the cash drawer' }).count()).toBe(0);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await hub.api.get(`/v1/printers/${printerId}`)).body).toMatchObject({ prints_receipts: false, cash_drawer: false });
  });

  it('turns printing the tickets the hub missed off and on (issue 44: catch-up printing)', async () => {
    await page.goto(`${hub.url}/app/printers`);
    const card = page.locator('section', { has: page.getByRole('heading', { name: 'Tickets the hub missed' }) });
    expect(await card.getByRole('switch', { name: 'Print missed tickets, marked LATE' }).isChecked()).toBe(true);
    await switchTo(card, 'Print missed tickets, marked LATE', false);
    await expect.poll(async () => (await hub.api.get('/v1/settings')).body.print_missed_tickets).toBe(false);
    await checkPage(page, 'printers-missed-tickets-off');
    // as saved, after a reload
    await page.reload();
    await card.getByRole('switch', { name: 'Print missed tickets, marked LATE' }).waitFor();
    expect(await card.getByRole('switch', { name: 'Print missed tickets, marked LATE' }).isChecked()).toBe(false);
    await switchTo(card, 'Print missed tickets, marked LATE', true);
    await expect.poll(async () => (await hub.api.get('/v1/settings')).body.print_missed_tickets).toBe(true);
  });

  it("names a ticket's station and its state in the reader's language", async () => {
    const cat = (await hub.api.post('/v1/menu_categories', { name: 'Grill', station: 'grill' })).body;
    const steak = (await hub.api.post('/v1/menu_items', { name: 'Tagliata', category: cat.id, price: 2400 })).body;
    const order = (await hub.api.post('/v1/orders', { type: 'takeout', customer_name: 'Ada', items: [{ menu_item: steak.id, quantity: 1 }], status: 'placed' })).body;
    await drain(hub);
    const owner = (await hub.api.get('/v1/staff')).body.data.find((s: { email: string }) => s.email === OWNER.email);
    expect((await hub.api.patch(`/v1/staff/${owner.id}`, { language: 'de' })).status).toBe(200);
    await page.goto(`${hub.url}/app/orders/${order.id}`);
    await jobs().filter({ hasText: 'Küchenbon (Grill)' }).getByText('Gedruckt').waitFor();
    expect(await page.getByText(/\(grill\)/).count()).toBe(0);
    await checkPage(page, 'order-print-jobs-de');
  });
});
