import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPage, IN_BROWSER } from '../backoffice/browser.ts';
import type { TestHub } from '../helpers/server.ts';
import { TcpProxy } from '../helpers/tcp-proxy.ts';
import { until } from '../helpers/until.ts';
import type { Menu } from '../orders/fixtures.ts';
import { eur, openServiceTablet, signInMia, type ServiceTablet } from './tablet.ts';

/**
 * Issue 44 stage 4, "when neither answers": the tablet reaches the hub through a loopback proxy
 * the test controls, so the hub can stop answering (cut: every connection reset, new ones
 * refused, as a stopped process) and come back, and the proxy counts what reached it. Sends,
 * a fire and a cash payment wait on the tablet across the page's death, then go once each.
 */
describe('the service tablet when neither home answers', IN_BROWSER, () => {
  let tablet: ServiceTablet;
  let hub: TestHub;
  let menu: Menu;
  let proxy: TcpProxy;
  let page: Page;

  beforeAll(async () => {
    tablet = await openServiceTablet({ width: 1024, height: 768 });
    ({ hub, menu, page } = tablet);
    proxy = await TcpProxy.start(Number(new URL(hub.url).port));
    // the tablet knows the hub by the proxy's address (cookies are per host, not port: its trust holds)
    await signInMia({ ...tablet, hub: { ...hub, url: proxy.url } });
    await page.locator(`[data-table="${tablet.table1}"]`).waitFor();
  }, 90_000); // 90 s: Chromium and a hub on a shared 2-core box
  afterAll(async () => {
    await tablet?.close();
    await proxy?.close();
  });

  const openCheck = async (tableId: string, items: unknown[], hold_courses: number[] = []) => {
    const r = await hub.api.post('/v1/orders', { type: 'dine_in', table: tableId, items, hold_courses, status: 'placed' });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body as { id: string; total: number; amount_due: number };
  };
  const add = () => page.getByRole('dialog').getByRole('button', { name: 'Add', exact: true });
  const queuedInBrowser = (p: Page) =>
    p.evaluate(
      () =>
        new Promise<number>((resolve, reject) => {
          const open = (globalThis as any).indexedDB.open('comanda-outbox');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const count = open.result.transaction('writes').objectStore('writes').count();
            count.onsuccess = () => resolve(count.result);
          };
        }),
    );

  it('queues two lines sent, a fire and cash for what was due; they survive the page and go once each when the hub answers', async () => {
    // the check as the hub last told it: a carbonara sent, a water held for course 2
    const before = await openCheck(menu.table, [{ menu_item: menu.pasta, quantity: 1, course: 1 }, { menu_item: menu.water, quantity: 1, course: 2 }], [2]);
    await page.locator(`[data-table="${tablet.table1}"]`).click();
    await page.locator(`[data-due="${before.amount_due}"]`).waitFor();

    proxy.cut();
    await page.getByText('Neither the hub nor the cloud is answering').waitFor();
    await page.getByRole('button', { name: 'Seat 2', exact: true }).click();
    await page.getByRole('button', { name: /^Steak/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Rare' }).click();
    await add().click();
    await page.getByRole('button', { name: /^Carbonara/ }).click();
    await add().click();
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText('Waiting to send (1)').waitFor();
    await page.getByRole('button', { name: 'Fire course 2' }).click();
    await page.getByText('Waiting to send (2)').waitFor();
    // a fire that waits is not offered again
    expect(await page.getByRole('button', { name: 'Fire course 2' }).count()).toBe(0);
    // the waiting lines carry a mark and no price; the total is still the hub's last
    const waiting = page.getByRole('region', { name: 'Waiting to send' });
    expect(await waiting.locator('.line-name').allTextContents()).toEqual(['1× Steak (Rare)', '1× Carbonara', 'Fire course 2']);
    expect(await waiting.getByText('waiting', { exact: true }).count()).toBe(3);
    expect(await waiting.getByText('€').count()).toBe(0);
    await page.locator(`[data-total="${before.total}"]`).waitFor();
    // what needs a home says so, its buttons off
    await page.getByText('Needs the hub or the cloud').waitFor();
    expect(await page.getByRole('button', { name: 'Print bill' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Move to another table' }).isDisabled()).toBe(true);

    // cash for what the hub last said was due, with the change for a 50
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    const cash = page.getByRole('dialog', { name: 'Take cash' });
    await cash.getByText('Card payments need the hub or the cloud').waitFor();
    expect(await cash.getByTestId('offline-due').textContent()).toContain(eur(before.amount_due));
    await cash.getByLabel('Cash given').fill('50.00');
    await cash.getByText(`Change: ${eur(5000 - before.amount_due)}`).waitFor();
    await cash.getByRole('button', { name: `Cash ${eur(before.amount_due)}, send when a home answers` }).click();
    await page.getByText('Waiting to send (3)').waitFor();
    expect(await page.getByRole('button', { name: 'Pay', exact: true }).isDisabled()).toBe(true);
    await checkPage(page, 'service-offline-queue');
    expect(await queuedInBrowser(page)).toBe(3);

    // the tab dies with the hub still away; a new one opens once the hub answers again
    const context = page.context();
    await page.close();
    proxy.restore();
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(`${proxy.url}/app/service`);
    const itemsPath = `/v1/orders/${before.id}/items`;
    await until('the queue sent from the new page', async () => (await hub.api.get(`/v1/payments?order=${before.id}`)).body.data.length > 0, {
      timeout: 20_000,
      diagnose: () => proxy.describe(),
    });
    const after = (await hub.api.get(`/v1/orders/${before.id}`)).body;
    expect(after.items.map((l: any) => [l.name, l.seat, l.held])).toEqual([['Carbonara', null, false], ['Water', null, false], ['Steak', 2, false], ['Carbonara', 2, false]]);
    const payments = (await hub.api.get(`/v1/payments?order=${before.id}`)).body.data;
    expect(payments.map((p: any) => [p.method, p.amount, p.tendered_amount, p.change_amount])).toEqual([['cash', before.amount_due, 5000, 5000 - before.amount_due]]);
    // each write reached the hub once (the old page never sent them: the hub was cut all along)
    expect([itemsPath, `/v1/orders/${before.id}/fire`, `/v1/orders/${before.id}/payments`].map((p) => proxy.requests.get(p))).toEqual([1, 1, 1]);
    // the payment is tied to the check's balance: what it paid is off, the new lines are due, and the page says so
    expect(after.amount_paid).toBe(before.amount_due);
    expect(after.amount_due).toBe(after.total - before.amount_due);
    expect(after.amount_due).toBeGreaterThan(0);
    await page.getByText(`Cash ${eur(before.amount_due)} taken at table ${tablet.table1} while offline is recorded; the check now says ${eur(after.amount_due)} is still due.`).waitFor();
    expect(await page.getByText(/Waiting to send/).count()).toBe(0);
    expect(await queuedInBrowser(page)).toBe(0);
  }, 60_000); // 60 s: a second page loads in Chromium on a shared 2-core box

  it('sends a round whose answer was lost again to the same hub with the same key, and the hub does it once', async () => {
    const before = await openCheck(menu.table2, [{ menu_item: menu.water, quantity: 1 }]);
    await page.locator(`[data-table="${tablet.table2}"]`).click();
    await page.locator(`[data-due="${before.amount_due}"]`).waitFor();
    await page.getByRole('button', { name: /^Carbonara/ }).click();
    await add().click();
    const itemsPath = `/v1/orders/${before.id}/items`;
    // the hub takes the round and its answer dies on the way back
    const lost = proxy.dropMidResponse(0, { path: itemsPath });
    await page.getByRole('button', { name: 'Send' }).click();
    await lost;
    await page.locator('[data-line="1"] .line-price').waitFor();
    const after = (await hub.api.get(`/v1/orders/${before.id}`)).body;
    expect(after.items.map((l: any) => l.name)).toEqual(['Water', 'Carbonara']);
    expect(proxy.requests.get(itemsPath)).toBe(2);
    await page.locator(`[data-due="${after.amount_due}"]`).waitFor();
    expect(await page.getByText(/Waiting to send/).count()).toBe(0);
  });
});
