import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IN_BROWSER, launch, pairScreen, shot } from '../backoffice/browser.ts';
import { ServeProcess, until } from '../helpers/comanda-process.ts';
import type { ApiClient } from '../helpers/server.ts';
import { signInByPin, trustedTablet } from '../service/tablet.ts';
import { startProcessPair, type ProcessPair } from './process-pair.ts';

/**
 * Issue 44's proof, as a venue lives it (docs/contributors/two-homes.md): a hub and its cloud as
 * `comanda serve` processes (the cloud on PostgreSQL, reached through a TCP proxy that plays the
 * internet), a trusted service tablet signed in by PIN and the grill's kitchen screen in
 * Chromium, both opened from the hub. Mid-service the hub is killed (-9): both devices carry on
 * through the cloud, the tablet sends a round the grill screen shows and takes a cash payment;
 * the hub starts again on its data, and the devices go back to it once it has caught up. Every
 * order, line and payment is then there once on both sides and `comanda sync audit` is clean.
 * The two times the issue asks for are printed (and kept in two-homes.md).
 */
const BANNER = 'The hub PC is not answering — working through the cloud';
const MIA = { email: 'mia@example.com', password: 'Mia password 1' };

// no second run: the first killed and restarted the hub and took the table's payment, so a
// rerun in place cannot replay it (a failure is reported as it happened)
describe('two homes: the hub PC stops mid-service', { ...IN_BROWSER, retry: 0 }, () => {
  let pair: ProcessPair;
  let browser: Browser;
  let tablet: Page;
  let grill: Page;
  const ids = { table: '' };

  beforeAll(async () => {
    pair = await startProcessPair({
      name: 'Trattoria Due Case',
      beforeLink: async (api) => {
        const ok = async (r: Promise<{ status: number; body: any }>) => {
          const res = await r;
          if (res.status >= 300) throw new Error(JSON.stringify(res.body));
          return res.body;
        };
        await ok(api.post('/v1/stations', { key: 'grill', name: 'Grill' }));
        const grillCat = await ok(api.post('/v1/menu_categories', { name: 'Grill', station: 'grill' }));
        await ok(api.post('/v1/menu_items', { name: 'Steak', category: grillCat.id, price: 2990 }));
        await ok(api.post('/v1/menu_items', { name: 'Lamb chops', category: grillCat.id, price: 2450 }));
        ids.table = (await ok(api.post('/v1/tables', { number: 1, capacity: 4 }))).id;
        const mia = await ok(api.post('/v1/staff', { name: 'Mia Manager', email: MIA.email, role: 'manager' }));
        await ok(api.post(`/v1/staff/${mia.id}/password`, { password: MIA.password }));
        await ok(api.post(`/v1/staff/${mia.id}/pin`, { pin: '2468' }));
      },
    });
    browser = await launch();
    // the tablet, trusted once by Mia, then signed in with her PIN; the grill's screen, paired with a code
    tablet = await trustedTablet(browser, pair.hub, { width: 800, height: 1280 }, MIA);
    await signInByPin(tablet, pair.hub.url, 'Mia Manager', '2468');
    await tablet.locator('[data-table="1"]').waitFor();
    grill = await (await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' })).newPage();
    grill.setDefaultTimeout(10_000);
    await pairScreen(grill, { url: pair.hub.url, api: pair.hubApi() }, { name: 'Grill screen', station: 'grill' });
    await grill.waitForURL(/\/screens\/kitchen\/grill$/);
    await grill.getByText('No open tickets').waitFor();
  }, 120_000); // 120 s: two processes, their link, and Chromium with two devices on a shared 2-core box
  afterAll(async () => {
    await browser?.close();
    await pair?.close();
  }, 90_000); // 90 s: the pair's close waits for both sides to converge and audits them

  it('kill -9 the hub: the tablet sends a round through the cloud, the grill screen shows it, cash is taken; the hub returns, caught up, and both devices go back', async () => {
    const hub = pair.hub.url;
    const tickets = (name: string) => grill.locator('article.ticket', { hasText: name });

    // mid-service on the hub: table 1's first round reaches the grill
    await tablet.locator('[data-table="1"]').click();
    await tablet.getByRole('heading', { name: 'Table 1' }).waitFor();
    await ringIn(tablet, 'Steak');
    await tickets('Steak').waitFor();

    // what a device needs to carry on elsewhere is in place: the cloud answers CORS for the
    // hub's origin, the tablet holds a cloud pass, and the cloud has everything (the screen's key, the tablet's trust, the check)
    await until('the cloud answers CORS for the hub’s origin', async () => {
      const r = await fetch(`${pair.proxy.url}/v1/orders`, { method: 'OPTIONS', headers: { origin: hub, 'access-control-request-method': 'POST' } });
      return r.headers.get('access-control-allow-origin') === hub;
    });
    await until('the tablet holds a cloud pass', () => tablet.evaluate(() => (JSON.parse((globalThis as any).sessionStorage.getItem('comanda.homes') ?? '{}') as { pass?: string }).pass ?? null));
    await until(pair.stalled('hub and cloud exchanged their changes'), () => pair.exchanged(), 20_000);

    const hubPort = pair.hub.port;
    await pair.hub.kill9();
    const died = Date.now();

    // the tablet says where it works now, and sends the next round through the cloud
    await tablet.getByText(BANNER).waitFor({ timeout: 20_000 });
    await ringIn(tablet, 'Lamb chops');
    // the grill screen, on the cloud too, shows it, and the first round once
    await tickets('Lamb chops').waitFor({ timeout: 20_000 });
    const firstTicket = Date.now();
    await grill.getByText(BANNER).waitFor();
    expect(await tickets('Steak').count()).toBe(1);
    await shot(grill, 'two-homes-grill-on-cloud');

    // cash for the whole check, on the cloud, of what the cloud says is due
    const due = await checkOf(pair.cloudApi());
    expect(due.items.map((l: any) => l.name)).toEqual(['Steak', 'Lamb chops']);
    const money = (minor: number) => new Intl.NumberFormat('en-GB', { style: 'currency', currency: String(due.currency).toUpperCase() }).format(minor / 100);
    await tablet.getByRole('button', { name: 'Pay', exact: true }).click();
    await tablet.getByRole('button', { name: 'Pay the rest' }).click();
    const dialog = tablet.getByRole('dialog');
    await dialog.getByText('Cash', { exact: true }).click();
    await dialog.getByLabel('Cash given').fill(((due.amount_due + 1000) / 100).toFixed(2));
    await dialog.getByRole('button', { name: `Record ${money(due.amount_due)}` }).click();
    await tablet.getByText('Table 1 is paid in full and free again.').waitFor();
    await shot(tablet, 'two-homes-tablet-on-cloud');
    const order = await checkOf(pair.cloudApi());
    expect(order).toMatchObject({ id: due.id, status: 'completed', amount_due: 0 });

    // the hub starts again on its data: the devices come back once it has pulled what the cloud took
    pair.hub = await ServeProcess.start(['--data-dir', pair.dir], { port: hubPort, env: pair.hubEnv });
    const started = Date.now();
    await until(
      'both devices back on the hub (no banner on either)',
      async () => (await tablet.locator('.live-banner').count()) === 0 && (await grill.locator('.kbanner').count()) === 0,
      { timeout: 30_000, diagnose: async () => ({ tablet: await tablet.locator('.live-banner').allTextContents(), grill: await grill.locator('.kbanner').allTextContents() }) },
    );
    const allBack = Date.now();
    console.log(`two homes: hub death → first ticket on the grill through the cloud ${((firstTicket - died) / 1000).toFixed(1)} s; hub return → every device back on the hub ${((allBack - started) / 1000).toFixed(1)} s`);
    // they came back to a hub that had caught up: the round and the payment taken on the cloud are there
    expect((await pair.hubApi().get(`/v1/orders/${order.id}`)).body).toMatchObject({ status: 'completed', amount_due: 0 });
    await grill.getByText('No open tickets').waitFor();

    // and service goes on on the hub: the table's next party, on the grill at once, under a new number
    await tablet.getByRole('button', { name: 'Floor', exact: true }).click();
    await tablet.locator('[data-table="1"]').click();
    await tablet.getByRole('heading', { name: 'Table 1' }).waitFor();
    await ringIn(tablet, 'Steak');
    await tickets('Steak').waitFor();
    expect(await tickets('Steak').count()).toBe(1);

    // after convergence (and a clean audit) every order, line and payment is there once on both sides
    await pair.converged();
    const everything = async (api: ApiClient) => {
      const orders = (await api.get(`/v1/orders?table=${ids.table}`)).body.data as { id: string }[];
      const full = await Promise.all(orders.map(async (o) => (await api.get(`/v1/orders/${o.id}`)).body));
      const payments = (await api.get(`/v1/payments?order=${order.id}`)).body.data as { id: string; amount: number; method: string }[];
      return { orders: full.map((o) => ({ id: o.id, number: o.order_number, lines: o.items.map((l: any) => `${l.id} ${l.name}`) as string[] })), payments: payments.map((p) => `${p.id} ${p.method} ${p.amount}`) };
    };
    const atHub = await everything(pair.hubApi());
    expect(atHub).toEqual(await everything(pair.cloudApi()));
    const names = atHub.orders.map((o) => o.lines.map((l) => l.split(' ').slice(1).join(' ')));
    expect(names.sort((a, b) => b.length - a.length)).toEqual([['Steak', 'Lamb chops'], ['Steak']]);
    expect(new Set(atHub.orders.map((o) => o.number)).size).toBe(2);
    expect(atHub.payments).toEqual([`${atHub.payments[0]!.split(' ')[0]} cash ${due.amount_due}`]);
  });
});

/** Rings `item` in at the open table and sends it. */
async function ringIn(tablet: Page, item: string): Promise<void> {
  await tablet.getByRole('button', { name: new RegExp(`^${item}`) }).click();
  await tablet.getByRole('dialog').getByRole('button', { name: 'Add', exact: true }).click();
  await tablet.getByRole('button', { name: 'Send' }).click();
}

/** Table 1's check (the day's only one so far) as `api`'s side has it. */
const checkOf = async (api: ApiClient) => {
  const [only] = (await api.get('/v1/orders')).body.data as { id: string }[];
  return (await api.get(`/v1/orders/${only!.id}`)).body;
};
