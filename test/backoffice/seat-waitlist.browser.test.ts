import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { checkPage, launch, shot, setUpVenue, signIn, IN_BROWSER } from './browser.ts';

/**
 * The host seats a waitlist party at a table from the back office: the dialog offers only the
 * free tables that fit, and the floor screen, the service floor plan (both open on other
 * tablets, not reloaded) and the day book show the table taken by that party.
 */
describe('seating a waitlist party at a table in the browser', IN_BROWSER, () => {
  let hub: TestHub;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const table: Record<string, string> = {};

  beforeAll(async () => {
    // the pages read the browser's clock: the hub runs on the same time
    hub = await startHub('sqlite', { clock: new ManualClock(Date.now()) });
    await setUpVenue(hub.url, 'Bistro Neuf');
    for (const [name, body] of Object.entries({
      small: { number: 1, capacity: 2 },
      right: { number: 2, capacity: 4 },
      taken: { number: 3, capacity: 4 },
      large: { number: 4, capacity: 8, min_capacity: 6 },
    })) table[name] = (await hub.api.post('/v1/tables', body)).body.id;
    // table 3 already has a party at it
    const earlier = await hub.api.post('/v1/waitlist', { guest_name: 'Earlier party', party_size: 4 });
    expect((await hub.api.post(`/v1/waitlist/${earlier.body.id}/seat`, { table: table.taken })).status).toBe(200);
    await hub.api.post('/v1/waitlist', { guest_name: 'Marguerite Fontaine-Delacroix', party_size: 3 });
    browser = await launch();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await signIn(page, hub.url);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await hub?.close();
  });

  it('offers the free tables that fit; the floor screen, the service plan and the day book follow live', async () => {
    const floor = await context.newPage();
    await floor.setViewportSize({ width: 800, height: 1280 });
    await floor.goto(`${hub.url}/screens/floor`);
    // the floor screen draws the same plan component as the service page
    const floorTable = (n: number) => floor.locator(`.plan-table[data-table="${n}"]`);
    await expect.poll(() => floorTable(3).getAttribute('class')).toContain('plan-seated');
    await expect.poll(() => floorTable(2).getAttribute('class')).toContain('plan-free');
    const service = await context.newPage();
    await service.setViewportSize({ width: 800, height: 1280 });
    await service.goto(`${hub.url}/app/service`);
    const planTable = (n: number) => service.locator(`.plan-table[data-table="${n}"]`);
    await expect.poll(() => planTable(3).getAttribute('class')).toContain('plan-seated');
    await expect.poll(() => planTable(2).getAttribute('class')).toContain('plan-free');

    await page.goto(`${hub.url}/app/waitlist`);
    await page.getByRole('button', { name: 'Seat: Marguerite Fontaine-Delacroix' }).click();
    const dialog = page.getByRole('dialog', { name: 'Seat Marguerite Fontaine-Delacroix · 3 guests' });
    const offered = dialog.getByRole('list', { name: 'Free tables that fit now' });
    await offered.waitFor();
    // table 1 is too small, 3 has a party, 4 is for six or more
    expect(await offered.getByRole('button').allTextContents()).toEqual(['Table 2 4 seats']);
    await checkPage(page, 'waitlist-seat-dialog');
    await offered.getByRole('button', { name: /Table 2/ }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('No one is waiting').or(page.getByText('Nobody is waiting')).or(page.locator('.empty')).first().waitFor();
    const entry = (await hub.api.get('/v1/waitlist?status=seated')).body.data.find((e: any) => e.guest_name.startsWith('Marguerite'));
    expect(entry).toMatchObject({ table: table.right });

    // the other tablets were not reloaded
    await expect.poll(() => floorTable(2).getAttribute('class')).toContain('plan-seated');
    await expect.poll(() => planTable(2).getAttribute('class')).toContain('plan-seated');
    await shot(floor, 'waitlist-seat-floor-screen');
    await shot(service, 'waitlist-seat-service-plan');

    await page.getByRole('link', { name: 'Reservations', exact: true }).click();
    const row = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Table 2' }) });
    await row.getByText('Marguerite Fontaine-Delacroix').waitFor();
    expect(await row.textContent()).toContain('Seated');
    await checkPage(page, 'waitlist-seat-day-book');
  });
});
