import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../server/logger.ts';
import { createServer, type ComandaServer } from '../../server/server.ts';
import { freshDatabase } from '../helpers/db.ts';
import { freePort } from '../helpers/free-port.ts';
import { checkPage, expectAccessible, launch, OWNER, shot, IN_BROWSER } from '../backoffice/browser.ts';

/**
 * The done-when walk of a venue's first day (issue #30), as an owner would do it: a fresh hub,
 * set up from its own root page, then the Today checklist followed link by link — opening hours,
 * a dish, a table with its QR code, a paired kitchen tablet, the online waitlist — then a guest
 * on a phone orders from the table's QR address (read from "Share and connect"), the order
 * reaches the kitchen tablet, and a party that joined the waitlist on a phone is seated at a
 * table from a staff tablet while the floor screen follows. No address is typed but the hub's
 * root: every other one is read from a page or reached by a link. Axe on every state visited.
 *
 * The hub is told its public address (as an operator on a LAN would be) so that the addresses
 * the back office shows are the ones this machine can open.
 */
describe('a venue’s first day, from the setup page to a seated waitlist party', IN_BROWSER, () => {
  let server: ComandaServer;
  let root: string;
  let browser: Browser;
  let office: Page; // the back office on the owner's PC, 1280×800
  let kitchen: Page; // the kitchen tablet, 800×1280
  let staff: BrowserContext; // the host's tablet, 800×1280
  let phone: BrowserContext; // a guest's phone, 390×844
  let menuUrl = '';
  let waitlistUrl = '';
  let floorUrl = '';

  beforeAll(async () => {
    const port = await freePort();
    root = `http://127.0.0.1:${port}`;
    server = createServer({ database: await freshDatabase('sqlite'), logger: silentLogger, config: { rateLimit: false, guestRateLimit: false, publicUrl: root } });
    await server.listen(port, '127.0.0.1');
    browser = await launch();
    office = await (await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB', timezoneId: 'UTC' })).newPage();
    office.setDefaultTimeout(10_000);
    // a tablet bought in the US: its own language writes 12-hour times, the venue's does not
    kitchen = await (await browser.newContext({ viewport: { width: 800, height: 1280 }, locale: 'en-US', timezoneId: 'America/New_York', hasTouch: true })).newPage();
    kitchen.setDefaultTimeout(10_000);
    staff = await browser.newContext({ viewport: { width: 800, height: 1280 }, locale: 'en-GB', timezoneId: 'UTC', hasTouch: true });
    phone = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-GB', timezoneId: 'UTC', isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const checklist = () => office.getByRole('region', { name: 'Before your first service' });
  const step = (key: string) => checklist().locator(`li[data-step="${key}"]`);
  const toToday = async () => {
    await office.getByRole('navigation').getByRole('link', { name: 'Today' }).click();
    await office.getByRole('heading', { level: 1, name: 'Today' }).waitFor();
    await checklist().waitFor();
  };
  const follow = async (key: string, name: string) => {
    await toToday();
    await step(key).getByRole('link', { name }).click();
  };
  const stepDone = (key: string) => expect.poll(() => step(key).textContent()).toContain('Done');

  it('sets the venue up from the hub’s own page and lands on the checklist', async () => {
    await office.goto(`${root}/`);
    await office.getByRole('heading', { name: 'Set up your restaurant' }).waitFor();
    await checkPage(office, 'walk-01-setup');
    await office.getByLabel('Restaurant name').fill('Café Lumière');
    await office.getByLabel('Time zone').selectOption('UTC');
    await office.getByLabel('Currency').selectOption('EUR');
    await office.getByLabel('Name', { exact: true }).fill(OWNER.name);
    await office.getByLabel('Email').fill(OWNER.email);
    await office.getByLabel('Password').fill(OWNER.password);
    await office.getByRole('button', { name: 'Create and sign in' }).click();
    await office.getByRole('heading', { level: 1, name: 'Today' }).waitFor();
    await expect.poll(() => checklist().textContent()).toContain('0 of 10 done');
    await checkPage(office, 'walk-02-today-checklist');
  });

  it('sets opening hours for the whole week from the checklist', async () => {
    await follow('hours', 'Set your opening hours');
    const monday = office.getByRole('group', { name: 'Monday' });
    await monday.getByLabel('Opens').fill('00:00');
    await monday.getByLabel('Closes').fill('23:59');
    await monday.getByRole('button', { name: 'Copy to every day' }).click();
    await checkPage(office, 'walk-03-opening-hours');
    await office.getByRole('button', { name: 'Save', exact: true }).click();
    await office.getByRole('status').getByText('Saved').waitFor();
    await toToday();
    await stepDone('hours');
  });

  it('adds a dish from the checklist', async () => {
    await follow('menu', 'Add the dishes of your menu');
    await office.getByRole('heading', { level: 1, name: 'Menu' }).waitFor();
    await checkPage(office, 'walk-04-menu-empty');
    await office.getByRole('tab', { name: 'Categories' }).click();
    await office.getByRole('button', { name: 'New category' }).click();
    await office.getByLabel('Name').fill('Mains');
    await office.getByRole('button', { name: 'Save' }).click();
    await office.locator('tr', { hasText: 'Mains' }).waitFor();
    await office.getByRole('tab', { name: 'Items' }).click();
    await office.getByRole('button', { name: 'New item' }).click();
    await office.getByLabel('Name', { exact: true }).fill('Grilled octopus');
    await office.getByLabel('Category').selectOption({ label: 'Mains' });
    await office.getByLabel('Price').fill('18.50');
    await checkPage(office, 'walk-05-menu-item-dialog');
    await office.getByRole('button', { name: 'Save' }).click();
    await office.locator('tr', { hasText: 'Grilled octopus' }).waitFor();
    await checkPage(office, 'walk-06-menu');
    await toToday();
    await stepDone('menu');
  });

  it('adds a table and its QR code from the checklist, and the QR sheet shows its address', async () => {
    await follow('tables', 'Add your tables');
    await office.getByRole('heading', { level: 1, name: 'Floor' }).waitFor();
    for (const [n, seats] of [['1', '4'], ['2', '2']]) {
      await office.getByRole('button', { name: 'New table' }).click();
      await office.getByLabel('Table number').fill(n);
      await office.getByLabel('Seats').fill(seats);
      await office.getByRole('button', { name: 'Save' }).click();
      await office.getByRole('dialog').waitFor({ state: 'detached' });
    }
    await office.locator('tbody tr').nth(1).waitFor();
    await checkPage(office, 'walk-07-floor');
    await toToday();
    await stepDone('tables');
    await step('qr').getByRole('link', { name: 'Give every table its QR code and print the sheet' }).click();
    const card = office.locator('.qr-card', { hasText: 'Table 1' });
    await card.getByRole('img', { name: 'QR code for table 1' }).waitFor();
    await checkPage(office, 'walk-08-qr-sheet');
    await toToday();
    await stepDone('qr');
  });

  it('pairs the kitchen tablet with the code and address the back office shows', async () => {
    await follow('screen', 'Pair a kitchen screen');
    const card = office.locator('section#screens');
    await card.getByLabel('Device name').fill('Kitchen tablet');
    await card.getByRole('button', { name: 'Make pairing code' }).click();
    const shown = card.getByRole('status');
    await shown.getByRole('img').waitFor();
    await checkPage(office, 'walk-09-pairing-code');
    // times in the venue's language (English here: 24-hour), as the screens below write them
    expect((await shown.textContent())!).toMatch(/valid until \d{2}:\d{2}\)/);
    const pairUrl = await card.getByLabel('Address for this tablet').inputValue();
    expect(pairUrl.startsWith(`${root}/screens/pair?code=`)).toBe(true);
    // the tablet opens the address (as scanning the QR code would): paired, it asks for its station
    await kitchen.goto(pairUrl);
    if (await kitchen.getByRole('button', { name: 'Pair' }).isVisible().catch(() => false)) await kitchen.getByRole('button', { name: 'Pair' }).click();
    await kitchen.getByRole('link', { name: /Kitchen/ }).first().waitFor();
    await checkPage(kitchen, 'walk-10-tablet-chooser');
    // the screen's clock is the venue's (its language's 24-hour format, its time zone), as the back office writes times
    const clock = (await kitchen.locator('.kbar-clock').textContent())!;
    expect(clock).toMatch(/^\d{2}:\d{2}$/);
    // the venue's time zone (UTC), not the tablet's New York (a minute either side: the clock ticks)
    const utc = (ms: number) => new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' }).format(ms);
    expect([utc(Date.now() - 60_000), utc(Date.now()), utc(Date.now() + 60_000)]).toContain(clock);
    await kitchen.getByRole('link', { name: /Kitchen/ }).first().click();
    await kitchen.getByText('No open tickets').waitFor();
    await checkPage(kitchen, 'walk-11-kitchen-empty');
    // the back office lists it without a reload, and the checklist counts it
    await card.locator('.device-row', { hasText: 'Kitchen tablet' }).waitFor();
    await toToday();
    await stepDone('screen');
  }, 90_000); // 90 s: Chromium and a hub on a shared 2-core box, through several pages

  it('switches on the online waitlist from the checklist', async () => {
    await follow('waitlist', 'Switch on the online waitlist');
    // the switch is its label: a tap on the words turns it on
    await office.locator('label.toggle', { hasText: 'Guests can join the waitlist online' }).click();
    expect(await office.getByRole('switch', { name: 'Guests can join the waitlist online' }).isChecked()).toBe(true);
    await office.getByRole('button', { name: 'Save', exact: true }).click();
    await office.getByRole('status').getByText('Saved').waitFor();
    await toToday();
    await stepDone('waitlist');
    await checkPage(office, 'walk-12-today-ready');
  });

  it('reads the guest addresses in full from Share and connect', async () => {
    await office.getByRole('navigation').getByRole('link', { name: 'Share and connect' }).click();
    await office.getByRole('heading', { level: 1, name: 'Share and connect' }).waitFor();
    await expect.poll(() => office.getByLabel('QR menu of table 1', { exact: true }).count()).toBe(1);
    menuUrl = await office.getByLabel('QR menu of table 1', { exact: true }).inputValue();
    waitlistUrl = await office.getByLabel('Guest waitlist page', { exact: true }).inputValue();
    floorUrl = await office.getByLabel('Floor screen', { exact: true }).inputValue();
    for (const u of [menuUrl, waitlistUrl, floorUrl]) expect(u.startsWith(`${root}/`), u).toBe(true);
    await checkPage(office, 'walk-13-share');
  });

  it('a guest orders on a phone from the table’s QR address and the kitchen tablet shows it', async () => {
    const guest = await phone.newPage();
    guest.setDefaultTimeout(10_000);
    await guest.goto(menuUrl);
    await guest.getByRole('heading', { level: 1, name: 'Café Lumière' }).waitFor();
    await guest.getByText('Table 1').waitFor();
    await checkPage(guest, 'walk-14-guest-menu');
    await guest.getByRole('button', { name: /^Grilled octopus/ }).click();
    const sheet = guest.getByRole('dialog', { name: 'Grilled octopus' });
    await expectAccessible(guest, 'walk: item sheet');
    await sheet.getByRole('button', { name: /^Add to order/ }).click();
    await guest.getByRole('button', { name: /^View order/ }).click();
    const cart = guest.getByRole('dialog', { name: 'Your order' });
    await cart.getByLabel('Your name (optional)').fill('Noor');
    await checkPage(guest, 'walk-15-guest-cart');
    await cart.getByRole('button', { name: /^Place order/ }).click();
    await guest.getByRole('heading', { name: /^Your order #/ }).waitFor();
    await guest.locator('[aria-current="step"]', { hasText: 'Received' }).waitFor();
    await checkPage(guest, 'walk-16-guest-status');
    // on the kitchen tablet, not reloaded
    await kitchen.getByText('1× Grilled octopus').waitFor();
    await checkPage(kitchen, 'walk-17-kitchen-ticket');
    // and the tablet finds its way back to the screen chooser
    await kitchen.getByRole('link', { name: 'Screen chooser' }).click();
    await kitchen.getByText('Choose a screen').waitFor();
    await guest.close();
  }, 90_000); // 90 s: Chromium and a hub on a shared 2-core box, through several pages

  it('a party joins the waitlist on a phone and the host seats it at a table from a tablet; the floor screen follows', async () => {
    // the host's tablet: signed in from the hub's root, the floor screen open beside it
    const host = await staff.newPage();
    host.setDefaultTimeout(10_000);
    await host.goto(`${root}/`);
    await host.getByLabel('Email').fill(OWNER.email);
    await host.getByLabel('Password').fill(OWNER.password);
    await host.getByRole('button', { name: 'Sign in' }).click();
    await host.getByRole('heading', { level: 1, name: 'Today' }).waitFor();
    const floor = await staff.newPage();
    floor.setDefaultTimeout(10_000);
    await floor.goto(floorUrl);
    const floorTable = floor.locator('.plan-table[data-table="1"]');
    await floorTable.waitFor();
    await checkPage(floor, 'walk-18-floor-screen');

    const guest = await phone.newPage();
    guest.setDefaultTimeout(10_000);
    await guest.goto(waitlistUrl);
    await guest.getByRole('heading', { level: 1 }).waitFor();
    await checkPage(guest, 'walk-19-waitlist-join');
    await guest.getByLabel('Your name').fill('Oskar Lindqvist');
    await guest.getByLabel(/^Party size/).fill('2');
    await guest.getByLabel('Mobile phone').fill('+49 151 23456789');
    await guest.getByLabel(/I agree/).check();
    await guest.getByRole('button', { name: 'Join the waitlist' }).click();
    await guest.waitForURL(/\/waitlist\/[\w.-]+$/, { timeout: 20_000 }).catch(async (e) => {
      await shot(guest, 'walk-20-waitlist-join-failed');
      throw e;
    });
    await guest.getByRole('heading', { name: 'You are number 1' }).waitFor();
    await checkPage(guest, 'walk-20-waitlist-position');

    // table 1 has the first order open: the host is offered table 2, and the floor screen follows
    await host.getByRole('navigation').getByRole('link', { name: 'Waitlist' }).click();
    await host.getByRole('heading', { level: 1, name: 'Waitlist' }).waitFor();
    await checkPage(host, 'walk-21-waitlist-tablet');
    await host.getByRole('button', { name: 'Seat: Oskar Lindqvist' }).click();
    const dialog = host.getByRole('dialog', { name: /^Seat Oskar Lindqvist/ });
    const offered = dialog.getByRole('list', { name: 'Free tables that fit now' });
    await offered.waitFor();
    expect(await offered.getByRole('button').allTextContents()).toEqual(['Table 2 2 seats']);
    await checkPage(host, 'walk-22-seat-dialog');
    await offered.getByRole('button', { name: /Table 2/ }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => floor.locator('.plan-table[data-table="2"]').getAttribute('class')).toContain('plan-seated');
    await checkPage(floor, 'walk-23-floor-seated');
    // the guest's phone says the table is ready, live
    await guest.getByText('You have been seated. Enjoy!').waitFor();
    await checkPage(guest, 'walk-24-waitlist-seated');
  }, 60_000);
});
