import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type TestHub } from '../helpers/server.ts';
import { checkPage, launch, setUpVenue, signedInHub, signIn, IN_BROWSER } from './browser.ts';

/**
 * A new venue's first day in Chromium against a real hub: Today lists what is still missing
 * (read from the real state, each step a link), a step turns done when the thing is done
 * through the pages, bookings say that opening hours are missing instead of "nothing free",
 * and the guest waitlist page of a venue that has it switched off says closed.
 */
describe('first day in the browser', IN_BROWSER, () => {
  let hub: TestHub;
  let browser: Browser;
  let page: Page;
  let close = async () => {};

  beforeAll(async () => {
    ({ hub, browser, page, close } = await signedInHub('Bistro Neuf'));
  }, 60_000);
  afterAll(() => close());

  const checklist = () => page.getByRole('region', { name: 'Before your first service' });
  const step = (key: string) => checklist().locator(`li[data-step="${key}"]`);

  it('shows a checklist of the real state on an empty venue, each step a link', async () => {
    await checklist().waitFor();
    for (const key of ['hours', 'menu', 'tables', 'qr', 'printers', 'screen', 'staff', 'waitlist', 'backups', 'cloud']) {
      await expect.poll(() => step(key).textContent()).toContain('To do');
    }
    await expect.poll(() => checklist().textContent()).toContain('0 of 10 done');
    await checkPage(page, 'first-day-today');
  });

  it('says opening hours are missing where a booking is made', async () => {
    await page.getByRole('link', { name: 'Reservations', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Reservations' }).waitFor();
    await page.getByRole('button', { name: 'New reservation' }).click();
    const dialog = page.getByRole('dialog', { name: 'New reservation' });
    await dialog.getByText('Set opening hours to take bookings.').waitFor();
    expect(await dialog.getByText('Nothing free for this party on this day.').count()).toBe(0);
    await checkPage(page, 'first-day-booking-no-hours');
    // its link leads to the hours
    await dialog.getByRole('link', { name: 'Opening hours' }).click();
    await page.getByRole('heading', { level: 2, name: 'Opening hours' }).waitFor();
  });

  it('marks a step done once it is done through the pages', async () => {
    await page.getByRole('link', { name: 'Today' }).click();
    await step('hours').getByRole('link', { name: 'Set your opening hours' }).click();
    const monday = page.getByRole('group', { name: 'Monday' });
    await monday.getByLabel('Opens').fill('12:00');
    await monday.getByLabel('Closes').fill('22:00');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').getByText('Saved').waitFor();
    expect(Object.values((await hub.api.get('/v1/settings')).body.opening_hours).flat()).toHaveLength(1);
    // tables made elsewhere (here the API) count the same
    const table = await hub.api.post('/v1/tables', { number: 1, capacity: 4 });
    expect(table.status).toBe(201);
    await page.getByRole('link', { name: 'Today' }).click();
    await expect.poll(() => step('hours').textContent()).toContain('Done');
    await expect.poll(() => step('tables').textContent()).toContain('Done');
    // a table without its QR code leaves that step open, pointing at the QR sheet
    await expect.poll(() => step('qr').textContent()).toContain('To do');
    expect(await step('qr').getByRole('link').getAttribute('href')).toBe('/app/floor/qr-sheet');
    await expect.poll(() => checklist().textContent()).toContain('2 of 10 done');
    await checkPage(page, 'first-day-today-progress');
  });

  it('the guest waitlist page of a venue with it switched off says closed, not "not available"', async () => {
    const settings = (await hub.api.get('/v1/settings')).body;
    expect(settings.waitlist.enabled).toBe(false);
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-GB' });
    const guest = await phone.newPage();
    await guest.goto(`${hub.url}/r/${settings.slug}/waitlist`);
    await guest.getByText('The online waitlist is closed right now. Please ask at the door.').waitFor();
    expect(await guest.getByText('This waitlist is not available.').count()).toBe(0);
    await checkPage(guest, 'first-day-waitlist-off');
    // an address that names no venue still says so
    await guest.goto(`${hub.url}/r/no-such-place/waitlist`);
    await guest.getByText('This waitlist is not available.').waitFor();
    await phone.close();
  });
});

describe('share and connect in the browser', IN_BROWSER, () => {
  let hub: TestHub;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    hub = await startHub('sqlite');
    await setUpVenue(hub.url, 'Bistro Neuf');
    const table = await hub.api.post('/v1/tables', { number: 7, capacity: 4 });
    expect((await hub.api.post('/v1/qr_codes', { table: table.body.id })).status).toBe(201);
    browser = await launch();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: hub.url });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await signIn(page, hub.url);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await hub?.close();
  });

  it('lists every address in full, copies one and shows its QR code, and the guest page it names opens', async () => {
    await page.getByRole('link', { name: 'Share and connect' }).click();
    await page.getByRole('heading', { level: 1, name: 'Share and connect' }).waitFor();
    const slug = (await hub.api.get('/v1/settings')).body.slug;
    const waitlist = page.getByLabel('Guest waitlist page', { exact: true });
    await expect.poll(() => waitlist.inputValue()).toMatch(new RegExp(`^http://[^/]+/r/${slug}/waitlist$`));
    expect(await page.getByLabel('Guest feedback page', { exact: true }).inputValue()).toMatch(new RegExp(`/r/${slug}/feedback$`));
    expect(await page.getByLabel('Floor screen', { exact: true }).inputValue()).toMatch(/\/screens\/floor$/);
    expect(await page.getByLabel('Expo screen', { exact: true }).inputValue()).toMatch(/\/screens\/expo$/);
    expect(await page.getByLabel('Pair a tablet', { exact: true }).inputValue()).toMatch(/^http/);
    const code = (await hub.api.get('/v1/qr_codes')).body.data[0];
    expect(await page.getByLabel('QR menu of table 7', { exact: true }).inputValue()).toBe(code.url);
    await page.getByRole('button', { name: 'Copy: Guest waitlist page' }).click();
    await page.getByRole('button', { name: 'Copied: Guest waitlist page' }).waitFor();
    expect(await page.evaluate(() => (globalThis as any).navigator.clipboard.readText())).toBe(await waitlist.inputValue());
    await page.getByRole('button', { name: 'QR code: Guest waitlist page' }).click();
    await page.getByRole('img', { name: 'QR code for Guest waitlist page' }).waitFor();
    await checkPage(page, 'share-and-connect');
    // the address shown is one that works
    const guest = await browser.newPage();
    await guest.goto((await waitlist.inputValue()).replace(/^http:\/\/[^/]+/, hub.url));
    await guest.getByRole('heading', { level: 1 }).waitFor();
    await guest.close();
  });

  it('adds a station by name in Settings, renames it, and offers it when pairing a screen', async () => {
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { level: 2, name: 'Stations' }).waitFor();
    await page.getByLabel('New station').fill('Grill');
    await page.getByRole('button', { name: 'Add station' }).click();
    await page.getByLabel('Name of Grill').waitFor();
    const made = (await hub.api.get('/v1/stations/grill')).body;
    expect(made).toMatchObject({ key: 'grill', name: 'Grill', is_active: true });
    await page.getByLabel('Name of Grill').fill('Charcoal grill');
    await page.getByLabel('Name of Grill').locator('xpath=ancestor::form').getByRole('button', { name: 'Rename' }).click();
    await page.getByLabel('Name of Charcoal grill').waitFor();
    expect((await hub.api.get('/v1/stations/grill')).body.name).toBe('Charcoal grill');
    // the screens' pairing form offers it
    await expect.poll(() => page.locator('#screens select option').allTextContents()).toContain('Charcoal grill');
    await checkPage(page, 'settings-stations');
  });
});
