import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../server/clock.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { checkPage, launch, OWNER, setUpVenue, IN_BROWSER } from './browser.ts';

const DAY = 86_400_000;

/**
 * Analytics as a German-speaking owner reads it, in Chromium against a real hub: a change from
 * nothing says "neu", from a tiny base a multiple; the trend and the forecast's confidence are
 * in words and explained; dates and percentages in German; the weekly chart's legend names the
 * week (no time of day) and shows money as money; the heat map passes axe's contrast check.
 */
describe('analytics wording in the browser', IN_BROWSER, () => {
  let hub: TestHub;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    const now = Date.now();
    hub = await startHub('sqlite', { clock: new ManualClock(now) });
    await setUpVenue(hub.url, 'Zur Linde');
    expect((await hub.api.patch('/v1/settings', { language: 'de' })).status).toBe(200);
    const category = (await hub.api.post('/v1/menu_categories', { name: 'Hauptgerichte' })).body.id;
    const dish = (await hub.api.post('/v1/menu_items', { name: 'Schnitzel', category, price: 1850 })).body.id;
    const sell = async (at: number, quantity = 1) => {
      hub.clock.set(at);
      const o = await hub.api.post('/v1/orders', { type: 'takeout', items: [{ menu_item: dish, quantity }] });
      expect(o.status).toBe(201);
      expect((await hub.api.patch(`/v1/orders/${o.body.id}`, { status: 'completed' })).status).toBe(200);
    };
    const noon = Math.floor(now / DAY) * DAY + 12 * 3_600_000;
    // the previous 30 days: one order; these 30 days: twelve, at lunch and dinner
    await sell(noon - 40 * DAY);
    for (let i = 0; i < 12; i++) await sell(noon - (i % 6) * DAY + (i % 3) * 7 * 3_600_000, 1 + (i % 4));
    hub.clock.set(now);
    browser = await launch();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'de-DE' })).newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(`${hub.url}/app/login`);
    await page.getByLabel('E-Mail').fill(OWNER.email);
    await page.getByLabel('Passwort').fill(OWNER.password);
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await page.getByRole('heading', { level: 1, name: 'Heute' }).waitFor();
  }, 90_000); // 90 s: Chromium and a hub on a shared 2-core box, through several pages
  afterAll(async () => {
    await browser?.close();
    await hub?.close();
  });

  it('says "new" and "n times" instead of huge percentages, in German, with the confidence explained', async () => {
    await page.goto(`${hub.url}/app/analytics`);
    await page.getByRole('heading', { level: 1, name: 'Auswertungen' }).waitFor();
    const stats = page.getByRole('region', { name: 'Gegenüber dem Vorzeitraum' });
    await stats.waitFor();
    const stat = (label: string) => stats.locator('.stat', { hasText: label }).locator('.stat-change');
    expect(await stat('Bestellungen').textContent()).toBe('12-mal so viel wie im Vorzeitraum');
    expect(await stat('Reservierungen').textContent()).toBe('in beiden Zeiträumen nichts');
    const text = (await page.locator('main').textContent())!;
    expect(text).not.toMatch(/\d+\.\d %|[+-]\d{3,}[.,]?\d* ?%/);
    expect(text).not.toMatch(/Trend: (stable|increasing|decreasing)/);
    expect(text).toMatch(/Trend: (gleichbleibend|steigend|fallend)/);
    await page.getByText('Die Sicherheit sagt, wie genau der Umsatz').waitFor();
    // forecast days in German ("Do., 27. Nov."), never ISO dates
    const forecast = page.locator('table[aria-describedby="confidence-hint"]');
    expect(await forecast.textContent()).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    expect(await forecast.locator('tbody td').first().textContent()).toMatch(/^(Mo|Di|Mi|Do|Fr|Sa|So)\., \d{1,2}\. /);
    await checkPage(page, 'analytics-de');
  });

  it('names the week and shows money in the weekly chart’s legend', async () => {
    await page.getByLabel('Gruppieren nach').selectOption('week');
    const chart = page.locator('.chart').first();
    await chart.locator('.u-legend').waitFor();
    const over = chart.locator('.u-over');
    const values = chart.locator('.u-legend .u-value');
    // the day chart is swapped for the week chart when its numbers arrive: point at whichever is
    // drawn, and again if it was swapped under the pointer
    await vi.waitFor(
      async () => {
        const box = await over.boundingBox({ timeout: 1_000 });
        if (!box) throw new Error('no chart yet');
        await over.hover({ position: { x: box.width - 3, y: box.height / 2 }, timeout: 1_000 });
        expect(await values.first().textContent({ timeout: 1_000 })).toMatch(/^Woche/);
      },
      { timeout: 10_000, interval: 250 },
    );
    await expect.poll(() => values.first().textContent()).toMatch(/^Woche ab \d{1,2}\.\d{1,2}\.\d{4}$|^Woche ab \d{1,2}\. \w+\.? \d{4}$/);
    expect(await values.first().textContent()).not.toMatch(/\d:\d\d/);
    expect(await values.nth(1).textContent()).toMatch(/€$/);
    expect(await chart.locator('.u-legend').textContent()).not.toContain('Time');
    await checkPage(page, 'analytics-de-weeks');
  });

  it('writes the chosen From and To out in the venue’s language, whatever the browser’s', async () => {
    // an owner of a German venue on a PC set to American English: the native field writes
    // 11/02/2026, so the date is said under it in German
    const us = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    const pc = await us.newPage();
    pc.setDefaultTimeout(10_000);
    // the sign-in page speaks the browser's language; once signed in, the venue's
    await pc.goto(`${hub.url}/app/login`);
    await pc.getByLabel('Email').fill(OWNER.email);
    await pc.getByLabel('Password').fill(OWNER.password);
    await pc.getByRole('button', { name: 'Sign in' }).click();
    await pc.getByRole('link', { name: 'Auswertungen' }).click();
    await pc.getByRole('heading', { level: 1, name: 'Auswertungen' }).waitFor();
    const described = async (label: string) => {
      const id = await pc.getByLabel(label, { exact: true }).getAttribute('aria-describedby');
      return id ? pc.locator(`[id="${id}"]`).textContent() : null;
    };
    await pc.getByLabel('Von', { exact: true }).fill('2026-11-02');
    await pc.getByLabel('Bis', { exact: true }).fill('2026-11-26');
    await expect.poll(() => described('Von')).toBe('Montag, 2. November 2026');
    await expect.poll(() => described('Bis')).toBe('Donnerstag, 26. November 2026');
    await checkPage(pc, 'analytics-de-range-on-us-pc');
    await us.close();
  }, 45_000);

  it('ticks the orders chart in whole orders, and gives the labour its own card beside no other', async () => {
    await page.goto(`${hub.url}/app/analytics`);
    // a day here has at most two orders: the axis read "2, 2, 1, 1, 0" (0.5 steps rounded)
    const chart = page.getByRole('img', { name: 'Bestellungen nach Art' });
    await expect.poll(() => chart.getAttribute('data-y-ticks')).toMatch(/\|/);
    const ticks = (await chart.getAttribute('data-y-ticks'))!.split('|');
    expect(ticks.every((x) => /^\d+$/.test(x)), ticks.join(', ')).toBe(true);
    expect(new Set(ticks).size).toBe(ticks.length);
    const card = (name: string) => page.locator('section.card', { has: page.getByRole('heading', { level: 2, name, exact: true }) });
    expect(await card('Arbeitszeit').count()).toBe(1);
    expect(await card('Arbeitszeit').getByRole('heading', { name: 'Meistverkauft' }).count()).toBe(0);
    for (const width of [1280, 800, 390]) {
      await page.setViewportSize({ width, height: 800 });
      const [labour, top] = [await card('Arbeitszeit').boundingBox(), await card('Meistverkauft').boundingBox()];
      const apart = labour!.y >= top!.y + top!.height || labour!.x >= top!.x + top!.width || top!.x >= labour!.x + labour!.width;
      expect(apart, `${width}px: ${JSON.stringify({ labour, top })}`).toBe(true);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});
