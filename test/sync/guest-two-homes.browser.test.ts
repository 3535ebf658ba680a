import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IN_BROWSER, launch, shot } from '../backoffice/browser.ts';
import { ServeProcess, until } from '../helpers/comanda-process.ts';
import { ok, startProcessPair, type ProcessPair } from './process-pair.ts';

/**
 * A guest's QR page already open when the hub PC stops (issue 44; two-homes.md, "Guests"): a
 * hub and its cloud as `comanda serve` processes (the cloud on PostgreSQL behind the proxy that
 * plays the internet), a guest's phone in Chromium with the table's menu loaded from the hub.
 * The hub is killed (-9): the page carries on through the cloud and the guest orders there.
 * The internet goes too: the page says plainly that nothing answers and keeps the cart. The
 * hub starts again while the internet is still down: the page goes back to it (the hub cannot
 * catch up, the cloud is out of reach). The internet returns: the order made through the cloud
 * is on the hub, and the kept cart goes.
 */
const LOST = 'Connection lost — trying again…';

describe('two homes: a guest page open when the hub PC stops', { ...IN_BROWSER, retry: 0 }, () => {
  let pair: ProcessPair;
  let browser: Browser;
  let guest: Page;
  let token = '';

  beforeAll(async () => {
    pair = await startProcessPair({
      name: 'Osteria Due Case',
      beforeLink: async (api) => {
        const cat = await ok(api.post('/v1/menu_categories', { name: 'Pasta' }));
        await ok(api.post('/v1/menu_items', { name: 'Carbonara', category: cat.id, price: 1450 }));
        await ok(api.post('/v1/menu_items', { name: 'Tiramisu', category: cat.id, price: 650 }));
        const table = await ok(api.post('/v1/tables', { number: 7, capacity: 4 }));
        token = (await ok(api.post('/v1/qr_codes', { table: table.id }))).token;
      },
    });
    browser = await launch();
    guest = await (await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'en-GB' })).newPage();
    guest.setDefaultTimeout(10_000);
  }, 120_000); // 120 s: two processes and their link on a shared 2-core box
  afterAll(async () => {
    await browser?.close();
    await pair?.close();
  }, 90_000); // 90 s: the pair's close waits for both sides to converge and audits them

  const add = async (dish: string) => {
    await guest.getByRole('button', { name: new RegExp(`^${dish}`) }).click();
    await guest.getByRole('dialog', { name: dish }).getByRole('button', { name: /^Add to order/ }).click();
  };
  const cart = () => guest.getByRole('dialog', { name: 'Your order' });

  it('kill -9 the hub: the open page orders through the cloud; with the internet down too it says so and keeps the cart; the order is on the hub when it is back', async () => {
    const hub = pair.hub.url;
    await guest.goto(`${hub}/qr/${token}`);
    await guest.getByText('Table 7').waitFor();
    await guest.getByRole('button', { name: /^Carbonara/ }).waitFor();

    // what the page needs to carry on: the cloud's address (from the hub's public answer), the
    // cloud answering CORS for the hub's origin, and the QR code on the cloud
    await until('the page knows the cloud', () => guest.evaluate(() => (JSON.parse((globalThis as any).sessionStorage.getItem('comanda.homes') ?? '{}') as { cloudUrl?: string }).cloudUrl ?? null));
    const homes = await (await fetch(`${hub}/public/homes`)).json();
    expect(homes).toMatchObject({ object: 'public_homes', cloud_url: new URL(pair.proxy.url).origin });
    await until('the cloud answers CORS for the hub’s origin', async () => {
      const r = await fetch(`${pair.proxy.url}/public/qr/${token}/orders`, { method: 'OPTIONS', headers: { origin: hub, 'access-control-request-method': 'POST' } });
      return r.headers.get('access-control-allow-origin') === hub;
    });
    await until(pair.stalled('hub and cloud exchanged their changes'), () => pair.exchanged(), 20_000);

    const hubPort = pair.hub.port;
    await pair.hub.kill9();
    // the page's live line drops, then comes back through the cloud
    await guest.getByText(LOST).waitFor();
    await guest.getByText(LOST).waitFor({ state: 'detached', timeout: 20_000 });

    await add('Carbonara');
    await guest.getByRole('button', { name: /^View order/ }).click();
    await cart().getByLabel('Your name (optional)').fill('Ada');
    await cart().getByRole('button', { name: /^Place order/ }).click();
    await guest.getByRole('heading', { name: /^Your order #/ }).waitFor();
    const orders = (await ok(pair.cloudApi().get('/v1/orders?limit=10'))).data as { id: string; customer_name?: string }[];
    expect(orders).toHaveLength(1);
    const orderId = orders[0].id;

    // the internet goes too: the guest adds a round, the page says nothing answers, the cart stays
    pair.proxy.cut();
    await guest.getByText(LOST).waitFor({ timeout: 30_000 });
    await guest.getByRole('button', { name: 'Order more' }).click();
    await add('Tiramisu');
    await guest.getByRole('button', { name: /^View order/ }).click();
    await cart().getByRole('button', { name: /^Add to my order/ }).click();
    await cart().getByRole('alert').filter({ hasText: 'Neither the restaurant’s system nor the internet is answering' }).waitFor({ timeout: 20_000 });
    await cart().getByText('1× Tiramisu').waitFor();
    await shot(guest, 'guest-two-homes-neither');

    // the hub starts on its data while the internet is still down: it cannot catch up with the
    // cloud, and the page, which cannot reach the cloud either, goes back to it at once
    pair.hub = await ServeProcess.start(['--data-dir', pair.dir], { port: hubPort, env: pair.hubEnv });
    await guest.getByText(LOST).waitFor({ state: 'detached', timeout: 30_000 });
    expect(((await (await fetch(`${hub}/public/homes`)).json()) as { hub_caught_up: boolean }).hub_caught_up).toBe(false);

    // the internet returns: the order made through the cloud reaches the hub
    pair.proxy.restore();
    await until(pair.stalled('the cloud’s guest order on the hub'), async () => (await pair.hubApi().get(`/v1/orders/${orderId}`)).status === 200, 30_000);

    // the kept cart goes with the guest's next tap, to the home the page is on now, once
    await cart().getByRole('button', { name: /^Add to my order/ }).click();
    await guest.getByRole('heading', { name: /^Your order #/ }).waitFor({ timeout: 20_000 });
    await guest.getByText('1× Tiramisu').waitFor();
    await until(pair.stalled('both rounds on the hub'), async () => ((await pair.hubApi().get(`/v1/orders/${orderId}`)).body.items ?? []).length === 2, 30_000);
    const atHub = (await pair.hubApi().get(`/v1/orders/${orderId}`)).body;
    expect(atHub.items.map((l: { name: string }) => l.name).sort()).toEqual(['Carbonara', 'Tiramisu']);
  }, 150_000); // 150 s: a kill -9, the line cut and restored, a restart, driven through Chromium
});
