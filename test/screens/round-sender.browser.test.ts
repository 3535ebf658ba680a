import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock.ts';
import { IN_BROWSER, launch, OWNER, pairScreen, shot } from '../backoffice/browser.ts';
import { seedMenu, type Menu } from '../orders/fixtures.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { until } from '../helpers/until.ts';
import { addPrinter, PrinterEmulator } from '../printers/fixtures.ts';

/**
 * A round rung in on a service tablet reaches the grill and the expo as the same push, headed by
 * the person who sent it (issue 41, item 9: Tina's round was headed "Sam Server", the check's
 * opener, and the expo saw the send 1.85 s after the station screens).
 */
describe('a round from the service tablet on the kitchen screens', IN_BROWSER, () => {
  let hub: TestHub;
  let menu: Menu;
  let browser: Browser;
  let tablet: BrowserContext;
  let service: Page;
  let grill: Page;
  let expo: Page;
  let grillPrinter: PrinterEmulator;
  /** what each screen page received and fetched, in order: `<page> <what>` */
  const log: string[] = [];

  beforeAll(async () => {
    hub = await startHub('sqlite', { clock: new ManualClock(Date.now()) });
    menu = await seedMenu(hub);
    grillPrinter = await PrinterEmulator.start();
    await addPrinter(hub, grillPrinter, { name: 'Grill printer', stations: ['grill'] });
    browser = await launch();
    const screen = async (name: string) => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
      await context.addInitScript("localStorage.setItem('comanda.sound', 'off')");
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      page.on('websocket', (ws) => ws.on('framereceived', (f) => {
        const m = JSON.parse(String(f.payload));
        if (m.type === 'order') log.push(`${name} push ${m.data.id} seq ${m.seq}`);
      }));
      page.on('request', (r) => new URL(r.url()).pathname.startsWith('/public/orders') && log.push(`${name} fetch ${new URL(r.url()).pathname}`));
      return page;
    };
    tablet = await browser.newContext({ viewport: { width: 1024, height: 768 }, locale: 'en-GB' });
    const setup = await tablet.request.post(`${hub.url}/v1/auth/setup`, {
      data: { restaurant_name: 'Osteria Nuova', timezone: 'UTC', currency: 'eur', owner_name: OWNER.name, owner_email: OWNER.email, owner_password: OWNER.password },
    });
    expect(setup.status()).toBeLessThan(300);
    const csrf = (await setup.json()).csrf_token;
    expect((await tablet.request.post(`${hub.url}/v1/auth/pin_device`, { headers: { 'x-csrf-token': csrf }, data: {} })).status()).toBeLessThan(300);
    await tablet.request.post(`${hub.url}/v1/auth/logout`, { headers: { 'x-csrf-token': csrf } });
    await hire('Sam Server', '2468');
    grill = await screen('grill');
    await pairScreen(grill, hub, { name: 'Grill tablet', station: 'grill' });
    await grill.getByText('No open tickets').waitFor();
    expo = await screen('expo');
    await pairScreen(expo, hub, { name: 'Pass' });
    await expo.getByRole('link', { name: 'Expo' }).click();
    await expo.getByRole('heading', { level: 1, name: 'Expo' }).waitFor();
    // taken on after the screens read their list of names: they learn hers from her first round
    await hire('Tina Server', '1357');

    service = await tablet.newPage();
    service.setDefaultTimeout(10_000);
  }, 90_000); // 90 s: Chromium, three pages and a hub on a shared 2-core box, set up once
  afterAll(async () => {
    await browser?.close();
    await hub?.close();
    await grillPrinter?.close();
  });

  async function hire(name: string, pin: string) {
    const s = await hub.api.post('/v1/staff', { name, email: `${name.split(' ')[0]!.toLowerCase()}@example.com`, role: 'server' });
    expect(s.status, JSON.stringify(s.body)).toBe(201);
    expect((await hub.api.post(`/v1/staff/${s.body.id}/pin`, { pin })).status).toBe(200);
  }
  const pinIn = async (name: string, pin: string) => {
    await service.getByRole('button', { name }).click();
    const pad = service.getByRole('group', { name: 'PIN keys' });
    for (const digit of pin) await pad.getByRole('button', { name: digit, exact: true }).click();
    await service.getByRole('button', { name: 'Sign in' }).click();
  };
  const sendSteak = async (doneness: string) => {
    hub.clock.set(Date.now());
    await service.getByRole('button', { name: /^Steak/ }).click();
    const sheet = service.getByRole('dialog');
    await sheet.getByText(doneness, { exact: true }).click();
    await sheet.getByRole('button', { name: 'Add', exact: true }).click();
    log.length = 0;
    await service.getByRole('button', { name: 'Send' }).click();
  };

  it("each round is headed by who sent it, on the grill and on the expo", async () => {
    await service.goto(`${hub.url}/app/service`);
    await pinIn('Sam Server', '2468');
    const table = await hub.api.get(`/v1/tables/${menu.table}`);
    await service.locator(`[data-table="${table.body.number}"]`).click();
    await sendSteak('Rare');
    const id = await until('the check on the table', async () => (await hub.api.get(`/v1/orders?table=${menu.table}`)).body.data[0]?.id as string | undefined);
    for (const page of [grill, expo]) await page.locator(`[data-order="${id}"] .ticket-server`, { hasText: 'Sam Server' }).waitFor();

    await service.getByRole('button', { name: 'Lock' }).click();
    await pinIn('Tina Server', '1357');
    await service.locator(`[data-table="${table.body.number}"]`).click();
    await sendSteak('Medium');
    for (const page of [grill, expo]) await page.locator(`[data-order="${id}"] .ticket-server`, { hasText: 'Tina Server' }).waitFor();
    // the printed ticket of Tina's round names her too
    const tickets = await until('two grill tickets', () => (grillPrinter.texts().length >= 2 ? grillPrinter.texts() : null));
    expect(tickets[0]).toContain('Server: Sam Server');
    expect(tickets[1]).toContain('Server: Tina Server');
    expect(tickets[1]).toContain('ROUND 2');
    await shot(grill, 'kds-round-sender');
    await shot(expo, 'expo-round-sender');
  });

  it("the expo takes the round from the same push as the grill, with no fetch of its own", async () => {
    // Tina's round above: one push each, of the same change, and nothing read again over HTTP
    const pushes = log.filter((l) => l.includes(' push '));
    expect(pushes.map((l) => l.split(' ')[0]).sort()).toEqual(['expo', 'grill']);
    expect(new Set(pushes.map((l) => l.replace(/^\w+ /, ''))).size).toBe(1);
    expect(log.filter((l) => l.includes(' fetch '))).toEqual([]);
  });
});
