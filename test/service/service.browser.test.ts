import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRecord } from '../../server/db/records.ts';
import { newId, PREFIXES } from '../../server/ids.ts';
import { checkPage, launch, shot, IN_BROWSER } from '../backoffice/browser.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { seedMenu, type Menu } from '../orders/fixtures.ts';
import { trustedTablet } from './tablet.ts';

/** The walk at a tablet viewport: PIN sign-in, table 12 from the plan, seats, a held course, send, fire, void, transfer. */
describe('order entry at the table in the browser', IN_BROWSER, () => {
  let hub: TestHub;
  let menu: Menu;
  let browser: Browser;
  let page: Page;
  const tableIds: Record<number, string> = {};

  beforeAll(async () => {
    hub = await startHub('sqlite');
    menu = await seedMenu(hub);
    await hub.server.services.tx.run(async (trx) => {
      for (const n of [12, 14]) {
        const row = await insertRecord(trx, 'tables', {
          id: newId(PREFIXES.table, hub.clock.now()), restaurant_id: hub.restaurant.id, number: n, capacity: 4, min_capacity: 1, zone: 'Terrace', status: 'available', is_active: 1, created: 0, updated: 0,
        });
        tableIds[n] = row.id;
      }
    });
    browser = await launch();
    page = await trustedTablet(browser, hub, { width: 800, height: 1280 });
    const sam = await hub.api.post('/v1/staff', { name: 'Sam Server', email: 'sam@example.com', role: 'manager' });
    expect(sam.status, JSON.stringify(sam.body)).toBe(201);
    expect((await hub.api.post(`/v1/staff/${sam.body.id}/pin`, { pin: '2468' })).status).toBe(200);
    const sara = await hub.api.post('/v1/staff', { name: 'Sara Server', email: 'sara@example.com', role: 'server' });
    expect(sara.status, JSON.stringify(sara.body)).toBe(201);
    expect((await hub.api.post(`/v1/staff/${sara.body.id}/pin`, { pin: '1357' })).status).toBe(200);
  }, 90_000); // 90 s: Chromium and a hub on a shared 2-core box, through several pages
  afterAll(async () => {
    await browser?.close();
    await hub?.close();
  });

  it('rings in two seats with a held dessert course, fires it, voids a line and moves the check', async () => {
    await page.goto(`${hub.url}/app/service`);
    await page.waitForLoadState('networkidle').catch(() => {});
    await shot(page, 'service-start');
    await page.getByRole('button', { name: 'Sam Server' }).click();
    await page.getByLabel('PIN', { exact: true }).fill('2468');
    await shot(page, 'service-pin');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('[data-table="12"]').waitFor();
    await checkPage(page, 'service-floor');

    await page.locator('[data-table="12"]').click();
    await page.getByRole('heading', { name: 'Table 12' }).waitFor();
    // seat 1: a steak, rare (a required choice: Add stays off until it is made)
    await page.getByRole('button', { name: /^Steak/ }).click();
    const add = page.getByRole('button', { name: 'Add', exact: true });
    expect(await add.isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Rare' }).click();
    await checkPage(page, 'service-modifiers');
    await add.click();
    // seat 2: carbonara with chili
    await page.getByRole('button', { name: 'Seat 2' }).click();
    await page.getByRole('searchbox').fill('carb');
    await page.getByRole('button', { name: /^Carbonara/ }).click();
    await page.getByRole('button', { name: /Chili/ }).click();
    await add.click();
    // dessert course (3) for seat 1, held
    await page.getByRole('button', { name: 'Seat 1' }).click();
    await page.getByRole('button', { name: 'Course 3' }).click();
    await page.getByRole('button', { name: /^Carbonara/ }).click();
    await add.click();
    await page.getByRole('button', { name: 'Hold course 3' }).click();
    await checkPage(page, 'service-check');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('button', { name: 'Fire course 3' }).waitFor();

    const orderId = async () => (await hub.api.get(`/v1/orders?table=${tableIds[12]}&status=placed`)).body.data[0]?.id as string;
    let id = await orderId();
    expect(id).toBeTruthy();
    const kitchen = async () => (await hub.api.get('/public/orders/kitchen?station=kitchen', { key: hub.keys.widget })).body;
    const linesAt = async () => ((await kitchen()).data ?? (await kitchen())).find((o: any) => o.id === id)?.items.map((i: any) => `${i.name} S${i.seat} C${i.course}`);
    expect(await linesAt()).toEqual(['Carbonara S2 C1']);
    let order = (await hub.api.get(`/v1/orders/${id}`)).body;
    expect(order.items.map((i: any) => [i.seat, i.course, i.held])).toEqual([[1, 1, false], [2, 1, false], [1, 3, true]]);
    expect(order.server).toBeTruthy();

    await page.getByRole('button', { name: 'Fire course 3' }).click();
    await page.getByRole('button', { name: 'Fire course 3' }).waitFor({ state: 'detached' });
    expect(await linesAt()).toEqual(['Carbonara S2 C1', 'Carbonara S1 C3']);

    await page.locator('[data-line="1"]').getByRole('button', { name: 'Void' }).click();
    await page.getByLabel('Why is it voided?').fill('guest changed their mind');
    await page.getByRole('dialog').getByRole('button', { name: 'Void' }).click();
    await page.locator('[data-line="1"]').getByText(/Voided/).waitFor();
    expect(await linesAt()).toEqual(['Carbonara S1 C3']);
    order = (await hub.api.get(`/v1/orders/${id}`)).body;
    expect(order.items[1].void_reason).toBe('guest changed their mind');
    await page.locator(`[data-total="${order.total}"]`).waitFor();

    await page.getByRole('button', { name: 'Move to another table' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Table 14' }).click();
    await page.getByRole('heading', { name: 'Table 14' }).waitFor();
    id = (await hub.api.get(`/v1/orders/${id}`)).body.table;
    expect(id).toBe(tableIds[14]);
    await checkPage(page, 'service-moved');
    await page.setViewportSize({ width: 1280, height: 800 });
    await shot(page, 'service-landscape');
  });

  it('a server comps a line and discounts the check, each approved by a manager typing their PIN', async () => {
    await page.setViewportSize({ width: 800, height: 1280 });
    await page.getByRole('button', { name: 'Lock' }).click();
    await page.getByRole('button', { name: 'Sara Server' }).click();
    await page.getByLabel('PIN', { exact: true }).fill('1357');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('[data-table="14"]').click();
    await page.getByRole('heading', { name: 'Table 14' }).waitFor();
    const id = (await hub.api.get(`/v1/orders?table=${tableIds[14]}`)).body.data[0].id as string;

    // a comp of the steak: the sheet opens on "Comp", says what is left, and asks for a manager's PIN
    await page.locator('[data-line="0"]').getByRole('button', { name: 'Discount Steak' }).click();
    const sheet = page.getByRole('dialog');
    expect(await sheet.getByRole('button', { name: 'Comp (all of it)' }).getAttribute('aria-pressed')).toBe('true');
    await sheet.getByLabel(/^Why\?/).fill('steak was overcooked');
    // her own PIN is no manager's: refused, the sheet stays open with the reason kept
    await sheet.getByLabel('Manager PIN', { exact: true }).fill('1357');
    await sheet.getByRole('button', { name: 'Comp it' }).click();
    await sheet.getByRole('alert').getByText(/manager/).waitFor();
    await checkPage(page, 'service-discount-refused');
    expect(await sheet.getByLabel(/^Why\?/).inputValue()).toBe('steak was overcooked');
    await sheet.getByLabel('Manager PIN', { exact: true }).fill('2468');
    await sheet.getByRole('button', { name: 'Comp it' }).click();
    await page.locator('[data-line="0"]').getByText(/Comped · steak was overcooked/).waitFor();
    let order = (await hub.api.get(`/v1/orders/${id}`)).body;
    expect(order.items[0]).toMatchObject({ discount_amount: 2990, discount_reason: 'steak was overcooked' });
    const approver = await hub.server.services.db.selectFrom('order_items').select('discount_approved_by').where('id', '=', order.items[0].id).executeTakeFirstOrThrow();
    expect(approver.discount_approved_by).toBe((await hub.api.get('/v1/staff')).body.data.find((s: any) => s.name === 'Sam Server').id);

    // 10 % off the check: the sheet shows the amount before it is sent; the total follows
    const before = order.total;
    await page.getByRole('button', { name: 'Discount the check' }).click();
    await sheet.getByRole('button', { name: 'Percent' }).click();
    await sheet.getByLabel('Percent off (1–100)').fill('10');
    await sheet.getByLabel(/^Why\?/).fill('regulars');
    await sheet.getByLabel('Manager PIN', { exact: true }).fill('2468');
    const off = Math.floor((before * 10 + 50) / 100);
    await sheet.getByText(`€${(off / 100).toFixed(2)} off`).waitFor();
    await checkPage(page, 'service-discount');
    await sheet.getByRole('button', { name: 'Apply discount' }).click();
    await page.getByText(`Check discount −€${(off / 100).toFixed(2)} · regulars`).waitFor();
    order = (await hub.api.get(`/v1/orders/${id}`)).body;
    expect(order.total).toBe(before - off);
    // the line under the check is the hub's own figure for the check's discount, the comp aside
    expect(order).toMatchObject({ check_discount_amount: off, discount_amount: 2990 + off });
    await page.locator(`.check-discount[data-check-discount="${order.check_discount_amount}"]`).waitFor();
    await page.locator(`[data-total="${order.total}"]`).waitFor();
    await checkPage(page, 'service-discounted');
  });

  it('merges the check of table 12 into table 14: its lines come over, table 12 is free, nothing is cooked twice', async () => {
    const other = await hub.api.post('/v1/orders', { type: 'dine_in', table: tableIds[12], items: [{ menu_item: menu.water, quantity: 2, seat: 1 }] });
    expect((await hub.api.patch(`/v1/orders/${other.body.id}`, { status: 'placed' })).status).toBe(200);
    const keptId = (await hub.api.get(`/v1/orders?table=${tableIds[14]}`)).body.data.find((o: any) => o.status !== 'cancelled').id as string;
    const before = (await hub.api.get(`/v1/orders/${keptId}`)).body;
    const jobs = async () => Number((await hub.server.services.db.selectFrom('print_jobs').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const printed = await jobs();

    await page.getByRole('button', { name: 'Merge a check into this one' }).click();
    const pick = page.getByRole('dialog').getByRole('button', { name: /^Table 12 · / });
    await pick.waitFor();
    await checkPage(page, 'service-merge');
    await pick.click();
    // seats are numbered on after the check's own (1 and 2): seat 1 of table 12 is seat 3 here
    await page.locator('[data-seat="3"] .check-lines li', { hasText: '2× Water' }).waitFor();
    const kept = (await hub.api.get(`/v1/orders/${keptId}`)).body;
    expect(kept.total).toBe(before.total + other.body.total);
    await page.locator(`[data-total="${kept.total}"]`).waitFor();
    expect((await hub.api.get(`/v1/orders/${other.body.id}`)).body).toMatchObject({ status: 'cancelled', merged_into: keptId });
    expect(await jobs()).toBe(printed);
    await shot(page, 'service-merged');

    await page.getByRole('button', { name: 'Floor' }).click();
    await page.locator('[data-table="12"]').getByText('Free').waitFor();
    await page.locator('[data-table="14"]').getByText('Ordered').waitFor();
  });
});
