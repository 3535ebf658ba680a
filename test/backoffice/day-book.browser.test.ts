import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { EVERY_DAY_NOON_TO_ELEVEN } from '../reservations/helpers.ts';
import { checkPage, launch, setUpVenue, signIn, IN_BROWSER } from './browser.ts';

/**
 * The reservations day book as a host uses it: a row for every table (booked or not), a booking
 * made for another day leaves the book on that day, the table picker leaves out tables taken at
 * the chosen time, and long guest names are shown whole.
 */
describe('the reservations day book in the browser', IN_BROWSER, () => {
  let hub: TestHub;
  let browser: Browser;
  let page: Page;
  const table: Record<string, string> = {};
  const day = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);

  beforeAll(async () => {
    hub = await startHub('sqlite', { clock: new ManualClock(Date.now()) });
    await setUpVenue(hub.url, 'Bistro Neuf');
    expect((await hub.api.patch('/v1/settings', { opening_hours: EVERY_DAY_NOON_TO_ELEVEN, reservation_buffer_minutes: 15 })).status).toBe(200);
    for (const [name, body] of Object.entries({ one: { number: 1, capacity: 4 }, two: { number: 2, capacity: 4 }, three: { number: 3, capacity: 2 } })) {
      table[name] = (await hub.api.post('/v1/tables', body)).body.id;
    }
    const booked = await hub.api.post('/v1/reservations', { guest_name: 'Marguerite Fontaine-Delacroix', party_size: 2, date: day, time: '19:00', table: table.one });
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    browser = await launch();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' })).newPage();
    page.setDefaultTimeout(10_000);
    await signIn(page, hub.url);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await hub?.close();
  });

  const rows = () => page.getByRole('list', { name: 'Day book' }).getByRole('listitem');

  it('shows a row per table on a day without bookings', async () => {
    await page.getByRole('link', { name: 'Reservations', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Reservations' }).waitFor();
    await expect.poll(() => rows().allTextContents()).toEqual(['Table 1', 'Table 2', 'Table 3']);
    await page.getByText('No reservations on this day.').waitFor();
  });

  it('offers only free tables, stays on the booked date and shows names whole', async () => {
    await page.getByRole('button', { name: 'New reservation' }).click();
    const dialog = page.getByRole('dialog', { name: 'New reservation' });
    await dialog.getByLabel('Guest name').fill('Bartholomew Featherstonehaugh');
    await dialog.getByLabel('Guests', { exact: true }).fill('2');
    await dialog.getByLabel('Date').fill(day);
    await dialog.getByLabel('Time').selectOption('19:30');
    // table 1 holds Marguerite from 19:00 to 20:30: not on offer at 19:30; the smallest fitting first
    await expect.poll(() => dialog.getByLabel('Table').locator('option').allTextContents()).toEqual(['Any free table', '3 (2)', '2 (4)']);
    await dialog.getByLabel('Time').selectOption('21:00');
    await expect.poll(() => dialog.getByLabel('Table').locator('option').allTextContents()).toEqual(['Any free table', '3 (2)', '1 (4)', '2 (4)']);
    await dialog.getByLabel('Time').selectOption('19:30');
    await dialog.getByLabel('Table').selectOption({ label: '2 (4)' });
    await checkPage(page, 'day-book-new-booking');
    await dialog.getByRole('button', { name: 'Book' }).click();
    await dialog.waitFor({ state: 'detached' });
    // the book now shows the booked date, with both parties on their tables
    await expect.poll(() => page.getByLabel('Date').inputValue()).toBe(day);
    const row = (n: number) => rows().filter({ has: page.getByRole('heading', { name: `Table ${n}` }) });
    await row(2).getByText('Bartholomew Featherstonehaugh').waitFor();
    await row(1).getByText('Marguerite Fontaine-Delacroix').waitFor();
    expect(await rows().count()).toBe(3);
    const cut = await page.locator('.booking-name').evaluateAll((els) =>
      els.filter((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1).map((el) => el.textContent),
    );
    expect(cut).toEqual([]);
    // the book scrolled sideways to the evening's bookings: both are in view
    for (const name of ['Marguerite Fontaine-Delacroix', 'Bartholomew Featherstonehaugh']) {
      const box = (await page.locator('.booking', { hasText: name }).boundingBox())!;
      const frame = (await page.locator('.daybook').boundingBox())!;
      expect(box.x >= frame.x && box.x + box.width <= frame.x + frame.width, name).toBe(true);
    }
    await checkPage(page, 'day-book-booked-day');
  });

  it("draws each row's line and its hour grid to the end of the axis, however far the day scrolls", async () => {
    await page.locator('.daybook').evaluate((el) => (el.scrollLeft = el.scrollWidth));
    // a row as wide as the day: its top line and grid reach the last hour (they stopped at the box's edge, "20:00")
    const { rows: widths, axis } = await page.locator('.daybook').evaluate((el) => ({
      rows: [...el.querySelectorAll('.daybook-row')].map((r) => Math.round(r.getBoundingClientRect().right)),
      axis: Math.round(el.querySelector('.daybook-hours .daybook-track')!.getBoundingClientRect().right),
    }));
    expect(widths.length).toBe(3);
    for (const right of widths) expect(right).toBeGreaterThanOrEqual(axis);
    await checkPage(page, 'day-book-scrolled-to-close');
  });

  it('offers times whose sitting ends by closing, and later ones once Settings allow bookings up to closing', async () => {
    const closingLate = Object.fromEntries(Object.keys(EVERY_DAY_NOON_TO_ELEVEN).map((d) => [d, [{ open: '12:00', close: '23:30' }]]));
    expect((await hub.api.patch('/v1/settings', { opening_hours: closingLate })).status).toBe(200);
    const offeredTimes = async () => {
      await page.getByRole('link', { name: 'Reservations', exact: true }).click();
      await page.getByRole('button', { name: 'New reservation' }).click();
      const dialog = page.getByRole('dialog', { name: 'New reservation' });
      await dialog.getByLabel('Date').fill(day);
      await dialog.getByLabel('Guests', { exact: true }).fill('2');
      const time = dialog.getByLabel('Time');
      // the list as the API offers it for this date (the date's answer has come once its last slot shows)
      await expect.poll(async () => (await time.locator('option').evaluateAll((os) => os.map((o) => o.getAttribute('value')))).length).toBeGreaterThan(5);
      const times = await time.locator('option').evaluateAll((os) => os.map((o) => o.getAttribute('value')));
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      return times;
    };
    // a 90-minute sitting at a venue closing at 23:30 starts by 22:00 (23:00 was offered: issue 41.16)
    await expect.poll(async () => (await offeredTimes()).at(-1)).toBe('22:00');

    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    await page.getByLabel('Last booking').selectOption({ label: 'Any time up to closing' });
    await checkPage(page, 'settings-last-booking');
    await page.getByRole('button', { name: 'Save' }).first().click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    expect((await hub.api.get('/v1/settings')).body.last_seating_before_close_minutes).toBe(0);
    await expect.poll(async () => (await offeredTimes()).at(-1)).toBe('23:00');
  });
});
