import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertRecord } from '../../server/db/records.ts';
import { newId, PREFIXES } from '../../server/ids.ts';
import { checkPage, launch, IN_BROWSER } from '../backoffice/browser.ts';
import { startHub, type TestHub } from '../helpers/server.ts';

/** The floor plan editor: drag a table, move one with the arrow keys, save; service and the floor screen draw the same plan. */
describe('arranging the floor plan in the browser', IN_BROWSER, () => {
  let hub: TestHub;
  let browser: Browser;
  let page: Page;
  const ids: Record<number, string> = {};

  beforeAll(async () => {
    hub = await startHub('sqlite');
    // the hub's clock is the tablet's: a check's age reads in minutes, not months
    hub.clock.set(Date.now());
    await hub.server.services.tx.run(async (trx) => {
      for (const [n, seats] of [[1, 2], [2, 4], [3, 6]] as const) {
        const row = await insertRecord(trx, 'tables', {
          id: newId(PREFIXES.table, hub.clock.now()), restaurant_id: hub.restaurant.id, number: n, capacity: seats, min_capacity: 1, zone: 'Terrace', status: 'available', is_active: 1, created: 0, updated: 0,
        });
        ids[n] = row.id;
      }
    });
    browser = await launch();
    const tablet = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    page = await tablet.newPage();
    page.setDefaultTimeout(10_000);
    const setup = await tablet.request.post(`${hub.url}/v1/auth/setup`, {
      data: { restaurant_name: 'Test Bistro', timezone: 'UTC', currency: 'eur', owner_name: 'Ada Owner', owner_email: 'ada@example.com', owner_password: 'a very good password' },
    });
    expect(setup.status()).toBeLessThan(300);
  }, 90_000); // 90 s: Chromium and a hub on a shared 2-core box, through several pages
  afterAll(async () => {
    await browser?.close();
    await hub?.close();
  });

  const at = async (p: Page, n: number) => {
    const el = p.locator(`[data-table="${n}"]`);
    return [Number(await el.getAttribute('data-x')), Number(await el.getAttribute('data-y'))];
  };

  it('drags one table and moves another with the keyboard; the service page and the floor screen draw them there', async () => {
    await page.goto(`${hub.url}/app/floor`);
    await page.getByRole('button', { name: 'Arrange the plan' }).click();
    const one = page.locator('[data-table="1"]');
    await one.waitFor();
    const [x1, y1] = await at(page, 1);

    // drag table 1 by a quarter of the map's width to the right and down
    const map = (await page.locator('.plan-map').first().boundingBox())!;
    const box = (await one.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + map.width / 8, box.y + box.height / 2 + map.width / 8, { steps: 5 });
    await page.mouse.move(box.x + box.width / 2 + map.width / 4, box.y + box.height / 2 + map.width / 4, { steps: 5 });
    await page.mouse.up();
    const [dx, dy] = await at(page, 1);
    expect(Math.abs(dx! - (x1! + 250))).toBeLessThanOrEqual(3);
    expect(Math.abs(dy! - (y1! + 250))).toBeLessThanOrEqual(3);

    // table 2 by keyboard: three steps right, one big step down
    const [x2, y2] = await at(page, 2);
    await page.getByRole('button', { name: /^Table 2\b/ }).focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Shift+ArrowDown');
    expect(await at(page, 2)).toEqual([x2! + 30, y2! + 50]);
    // its shape and seats, by keyboard too: Enter on the table opens them beside the plan
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Table 2' }).waitFor();
    await page.getByLabel('Shape').focus();
    await page.getByLabel('Shape').selectOption('round');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('5');
    await page.locator('[data-table="2"].plan-round').getByText('5 seats').waitFor();
    await checkPage(page, 'floor-arrange');
    await page.getByRole('button', { name: 'Save the plan' }).click();
    await page.getByRole('status').getByText('The plan is saved').waitFor();

    const stored = (await hub.api.get('/v1/tables')).body.data;
    const byNo = (n: number) => stored.find((x: any) => x.number === n);
    expect(byNo(1)).toMatchObject({ plan_x: dx, plan_y: dy });
    expect(byNo(2)).toMatchObject({ plan_x: x2! + 30, plan_y: y2! + 50, shape: 'round', capacity: 5 });
    expect(byNo(3)).toMatchObject({ shape: null, capacity: 6 });
    // table 3 never moved: not placed, drawn in its row
    expect(byNo(3)).toMatchObject({ plan_x: null, plan_y: null });

    // order entry: the same plan, tables where they were put
    await page.goto(`${hub.url}/app/service`);
    await page.locator('[data-table="1"]').waitFor();
    expect(await at(page, 1)).toEqual([dx, dy]);
    expect(await at(page, 2)).toEqual([x2! + 30, y2! + 50]);
    expect(await page.locator('[data-table="2"]').getAttribute('class')).toContain('plan-round');
    const third = await at(page, 3);
    await checkPage(page, 'service-floor-plan');

    // the floor screen: the same plan again
    await page.goto(`${hub.url}/screens/floor`);
    await page.locator('[data-table="1"]').waitFor();
    expect(await at(page, 1)).toEqual([dx, dy]);
    expect(await at(page, 2)).toEqual([x2! + 30, y2! + 50]);
    expect(await at(page, 3)).toEqual(third);
    await checkPage(page, 'floor-screen-plan');
  });

  it('keeps a round table\'s state and check inside its circle on a portrait tablet', async () => {
    // table 1 is round (two seats); its check served, so it waits for the bill: the longest label
    const category = (await hub.api.post('/v1/menu_categories', { name: 'Drinks' })).body.id;
    const water = (await hub.api.post('/v1/menu_items', { name: 'Water', category, price: 1071 })).body.id;
    const order = (await hub.api.post('/v1/orders', { type: 'dine_in', table: ids[1], items: [{ menu_item: water, quantity: 1 }] })).body;
    for (const status of ['placed', 'preparing', 'ready', 'served']) expect((await hub.api.patch(`/v1/orders/${order.id}`, { status })).status).toBe(200);
    await page.setViewportSize({ width: 800, height: 1280 });
    await page.goto(`${hub.url}/app/service`);
    const round = page.locator('[data-table="1"].plan-round.plan-bill');
    await round.getByText('Waiting for the bill').waitFor();
    // every line of text lies inside the circle (its corners within the radius), none cut off
    const outside = await round.evaluate((el) => {
      const c = el.getBoundingClientRect();
      const [cx, cy, r] = [c.left + c.width / 2, c.top + c.height / 2, Math.min(c.width, c.height) / 2 - 2];
      // a circle, not an oval squeezed by its text
      const out: string[] = Math.abs(c.width - c.height) > 2 ? [`an oval ${c.width} × ${c.height}`] : [];
      const doc = el.ownerDocument;
      const texts = doc.createTreeWalker(el, 4 /* NodeFilter.SHOW_TEXT */);
      for (let node = texts.nextNode(); node; node = texts.nextNode()) {
        if (node.parentElement?.closest('.sr-only') || !node.textContent?.trim()) continue;
        const range = doc.createRange();
        range.selectNodeContents(node);
        for (const line of range.getClientRects()) {
          for (const [x, y] of [[line.left, line.top], [line.right, line.top], [line.left, line.bottom], [line.right, line.bottom]]) {
            if (Math.hypot(x! - cx, y! - cy) > r) out.push(`${node.textContent.trim()} (${Math.round(x!)}, ${Math.round(y!)})`);
          }
        }
      }
      return [...new Set(out)];
    });
    expect(outside).toEqual([]);
    await checkPage(page, 'service-floor-round-bill');
  });

  it('keeps an unplaced table out from under a placed one, warns of tables overlapping while arranging, and resizes and turns a table', async () => {
    // table 10 placed exactly where table 11, not placed yet, has its place in the rows (the second)
    await hub.server.services.tx.run(async (trx) => {
      for (const [n, x] of [[10, 272], [11, null]] as const) {
        await insertRecord(trx, 'tables', {
          id: newId(PREFIXES.table, hub.clock.now()), restaurant_id: hub.restaurant.id, number: n, capacity: 4, min_capacity: 1, zone: 'Garden', status: 'available', is_active: 1, created: 0, updated: 0, plan_x: x, plan_y: x === null ? null : 30,
        });
      }
    });
    await page.setViewportSize({ width: 1024, height: 768 });
    const boxOf = async (n: number) => {
      const el = page.locator(`[data-table="${n}"]`);
      const [x, y, w, h] = await Promise.all(['data-x', 'data-y', 'data-w', 'data-h'].map(async (a) => Number(await el.getAttribute(a))));
      return { x: x!, y: y!, w: w!, h: h! };
    };
    const apart = (a: { x: number; y: number; w: number; h: number }, b: typeof a) => a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y;
    // the service plan: table 11 takes the next free place instead of hiding under table 10
    await page.goto(`${hub.url}/app/service`);
    await page.locator('[data-table="11"]').waitFor();
    expect(apart(await boxOf(10), await boxOf(11))).toBe(true);

    await page.goto(`${hub.url}/app/floor`);
    await page.getByRole('button', { name: 'Arrange the plan' }).click();
    await page.locator('[data-table="11"]').waitFor();
    const start = await boxOf(11);
    expect(apart(await boxOf(10), start)).toBe(true);
    // moved onto table 10 with the keyboard: both outlined, named above the plan, Save waits
    await page.getByRole('button', { name: /^Table 11\b/ }).focus();
    for (let i = 0; i < 5; i++) await page.keyboard.press('Shift+ArrowLeft');
    await page.getByRole('status').getByText('Tables overlap: 10 and 11. Move one of each apart before saving.').waitFor();
    expect(await page.locator('.plan-overlap').count()).toBe(2);
    expect(await page.getByRole('button', { name: 'Save the plan' }).isDisabled()).toBe(true);
    await checkPage(page, 'floor-arrange-overlap');
    // back out and down: apart again
    for (let i = 0; i < 5; i++) await page.keyboard.press('Shift+ArrowRight');
    for (let i = 0; i < 5; i++) await page.keyboard.press('Shift+ArrowDown');
    await expect.poll(() => page.locator('.plan-overlap').count()).toBe(0);
    expect(await boxOf(11)).toMatchObject({ x: start.x, y: start.y + 250 });

    // table 10 made deeper, then turned a quarter: a long table across the room
    await page.getByRole('button', { name: /^Table 10\b/ }).click();
    await page.getByRole('heading', { name: 'Table 10' }).waitFor();
    await page.getByLabel('Depth').fill('300');
    await expect.poll(() => boxOf(10)).toMatchObject({ w: 170, h: 300 });
    await page.getByRole('button', { name: 'Turn 90°' }).click();
    await expect.poll(() => boxOf(10)).toMatchObject({ w: 300, h: 170 });
    await checkPage(page, 'floor-arrange-turned');
    await page.getByRole('button', { name: 'Save the plan' }).click();
    await page.getByRole('status').getByText('The plan is saved').waitFor();
    const stored = (await hub.api.get('/v1/tables?limit=100')).body.data;
    expect(stored.find((x: any) => x.number === 10)).toMatchObject({ plan_x: 272, plan_y: 30, plan_width: 300, plan_height: 170 });
    expect(stored.find((x: any) => x.number === 11)).toMatchObject({ plan_x: start.x, plan_y: start.y + 250 });

    await page.goto(`${hub.url}/app/service`);
    await page.locator('[data-table="10"]').waitFor();
    expect(await boxOf(10)).toEqual({ x: 272, y: 30, w: 300, h: 170 });
    await checkPage(page, 'service-floor-turned');
  });
});
