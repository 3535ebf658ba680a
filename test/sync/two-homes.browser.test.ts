import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrinterEmulator } from '../../printers/emulator.ts';
import { IN_BROWSER, launch, pairScreen, shot } from '../backoffice/browser.ts';
import { ServeProcess, until } from '../helpers/comanda-process.ts';
import { addPrinter } from '../printers/fixtures.ts';
import type { ApiClient } from '../helpers/server.ts';
import { signInByPin, trustedTablet } from '../service/tablet.ts';
import { ok, startProcessPair, type ProcessPair } from './process-pair.ts';

/**
 * Issue 44's proof, as a venue lives it (docs/contributors/two-homes.md): a hub and its cloud as
 * `comanda serve` processes (the cloud on PostgreSQL, reached through a TCP proxy that plays the
 * internet), the grill's printer (an emulator on the hub's network), a trusted service tablet
 * signed in by PIN and the grill's kitchen screen in Chromium, both opened from the hub.
 * Mid-service the hub is killed (-9): both devices carry on through the cloud, the tablet sends a
 * round the grill screen shows and takes a cash payment. Then the internet goes too: the tablet
 * keeps a round and a cash payment waiting. The internet comes back (they are sent), then the hub
 * starts again on its data: the devices go back to it once it has caught up, its printer prints
 * what it missed marked LATE, and every order, line and payment is there once on both sides with
 * `comanda sync audit` clean. The two times the issue asks for are printed (and kept in
 * two-homes.md).
 */
const BANNER = 'The hub PC is not answering — working through the cloud';
const MIA = { email: 'mia@example.com', password: 'Mia password 1' };
const PRELOAD = path.resolve('test/helpers/clock-step-preload.mjs');

// no second run: the first killed and restarted the hub and took the tables' payments, so a
// rerun in place cannot replay it (a failure is reported as it happened)
describe('two homes: the hub PC stops mid-service', { ...IN_BROWSER, retry: 0 }, () => {
  let pair: ProcessPair;
  let printer: PrinterEmulator;
  let browser: Browser;
  let tablet: Page;
  let grill: Page;

  beforeAll(async () => {
    printer = await PrinterEmulator.start();
    pair = await startProcessPair({
      name: 'Trattoria Due Case',
      beforeLink: async (api) => {
        await ok(api.post('/v1/stations', { key: 'grill', name: 'Grill' }));
        await addPrinter({ api }, printer, { name: 'Grill printer', stations: ['grill'] });
        const grillCat = await ok(api.post('/v1/menu_categories', { name: 'Grill', station: 'grill' }));
        await ok(api.post('/v1/menu_items', { name: 'Steak', category: grillCat.id, price: 2990 }));
        await ok(api.post('/v1/menu_items', { name: 'Lamb chops', category: grillCat.id, price: 2450 }));
        for (const number of [1, 2]) await ok(api.post('/v1/tables', { number, capacity: 4 }));
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
    await printer?.close();
  }, 90_000); // 90 s: the pair's close waits for both sides to converge and audits them

  it('kill -9 the hub: the tablet works through the cloud, then queues while the internet is down too; the hub returns, caught up, prints what it missed marked LATE, and the devices go back', async () => {
    const hub = pair.hub.url;
    const tickets = (name: string) => grill.locator('article.ticket', { hasText: name });
    const printed = () => printer.texts();
    const late = () => printed().filter((t) => t.includes('LATE - rung in'));

    // mid-service on the hub: table 1's first round reaches the grill's screen and its printer
    await openTable(tablet, 1);
    await ringIn(tablet, 'Steak');
    await tickets('Steak').waitFor();
    await until('the first round printed at the grill', () => printed().some((t) => t.includes('1 x Steak')));

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

    // cash for table 1's whole check, on the cloud, of what the cloud says is due
    const table1 = await checkAt(pair.cloudApi(), 1);
    expect(table1.items.map((l: any) => l.name)).toEqual(['Steak', 'Lamb chops']);
    const money = (minor: number) => new Intl.NumberFormat('en-GB', { style: 'currency', currency: String(table1.currency).toUpperCase() }).format(minor / 100);
    await tablet.getByRole('button', { name: 'Pay', exact: true }).click();
    await tablet.getByRole('button', { name: 'Pay the rest' }).click();
    const dialog = tablet.getByRole('dialog');
    await dialog.getByText('Cash', { exact: true }).click();
    await dialog.getByLabel('Cash given').fill(((table1.amount_due + 1000) / 100).toFixed(2));
    await dialog.getByRole('button', { name: `Record ${money(table1.amount_due)}` }).click();
    await tablet.getByText('Table 1 is paid in full and free again.').waitFor();
    await shot(tablet, 'two-homes-tablet-on-cloud');
    expect(await checkAt(pair.cloudApi(), 1, table1.id)).toMatchObject({ status: 'completed', amount_due: 0 });

    // table 2 sits down and orders, still through the cloud
    await tablet.getByRole('button', { name: 'Floor', exact: true }).click();
    await openTable(tablet, 2);
    await ringIn(tablet, 'Steak');
    await tickets('Steak').waitFor();
    const table2 = await until('table 2’s check on the cloud', async () => (await checkAt(pair.cloudApi(), 2))?.items.length === 1 && checkAt(pair.cloudApi(), 2));

    // the internet goes too: neither home answers, the tablet keeps the next round and the cash
    pair.proxy.cut();
    await tablet.getByText('Neither the hub nor the cloud is answering.', { exact: false }).waitFor();
    await ringIn(tablet, 'Lamb chops');
    await tablet.getByText('Waiting to send (1)').waitFor();
    await tablet.getByRole('button', { name: 'Pay', exact: true }).click();
    await dialog.getByLabel('Cash given').fill(((table2.amount_due + 1000) / 100).toFixed(2));
    await dialog.getByRole('button', { name: `Cash ${money(table2.amount_due)}, send when a home answers` }).click();
    await tablet.getByText('Waiting to send (2)').waitFor();
    await shot(tablet, 'two-homes-tablet-queued');

    // the internet comes back: what waited goes, in order, to the cloud; the grill shows it
    pair.proxy.restore();
    await tablet.getByText('Everything that was waiting has been sent.').waitFor({ timeout: 20_000 });
    await tickets('Lamb chops').waitFor({ timeout: 20_000 });
    const table2Now = await checkAt(pair.cloudApi(), 2, table2.id);
    expect(table2Now.items.map((l: any) => l.name)).toEqual(['Steak', 'Lamb chops']);
    expect(table2Now.amount_paid).toBe(table2.amount_due);
    await tablet.getByText(`the check now says ${money(table2Now.amount_due)} is still due`, { exact: false }).waitFor();

    // the hub starts again on its data, three minutes after the lines were rung in by its clock
    // (stepped by the preload the sync fuzzer uses: waiting out the two minutes after which a
    // missed ticket is late would cost the run that long); the devices come back once it has
    // pulled what the cloud took
    const step = path.join(pair.dir, 'clock-step');
    fs.writeFileSync(step, String(3 * 60_000));
    pair.hub = await ServeProcess.start(['--data-dir', pair.dir], { port: hubPort, env: { ...pair.hubEnv, NODE_OPTIONS: `--import ${PRELOAD}`, COMANDA_TEST_CLOCK_STEP_FILE: step } });
    const started = Date.now();
    await until(
      'both devices back on the hub (no banner on either)',
      async () => (await tablet.locator('.live-banner').count()) === 0 && (await grill.locator('.kbanner').count()) === 0,
      { timeout: 30_000, diagnose: async () => ({ tablet: await tablet.locator('.live-banner').allTextContents(), grill: await grill.locator('.kbanner').allTextContents() }) },
    );
    const allBack = Date.now();
    console.log(`two homes: hub death → first ticket on the grill through the cloud ${((firstTicket - died) / 1000).toFixed(1)} s; hub return → every device back on the hub ${((allBack - started) / 1000).toFixed(1)} s`);
    // they came back to a hub that had caught up: what the cloud took is there
    expect(await checkAt(pair.hubApi(), 1, table1.id)).toMatchObject({ status: 'completed', amount_due: 0 });
    expect(await checkAt(pair.hubApi(), 2, table2.id)).toMatchObject({ amount_paid: table2.amount_due, amount_due: table2Now.amount_due });
    expect([await tickets('Steak').count(), await tickets('Lamb chops').count()]).toEqual([1, 1]);

    // the grill's printer prints what it missed, marked LATE: table 2's two rounds, once; not
    // table 1's second round, paid and closed meanwhile; the first round was printed live
    await until('the missed tickets printed, marked late', () => late().join().includes('1 x Lamb chops'), { diagnose: printed });
    const count = (texts: string[], what: string) => texts.join('\n').split(what).length - 1;
    expect([count(late(), '1 x Steak'), count(late(), '1 x Lamb chops')]).toEqual([1, 1]);
    expect([count(printed(), '1 x Steak'), count(printed(), '1 x Lamb chops')]).toEqual([2, 1]);

    // service goes on on the hub: table 1's next party, on the grill at once, under a new number
    await tablet.getByRole('button', { name: 'Floor', exact: true }).click();
    await openTable(tablet, 1);
    await ringIn(tablet, 'Steak');
    await until('the next party’s ticket on the grill', async () => (await tickets('Steak').count()) === 2);

    // after convergence (and a clean audit) every order, line and payment is there once on both sides
    await pair.converged();
    const everything = async (api: ApiClient) => {
      const orders = (await api.get('/v1/orders')).body.data as { id: string }[];
      const full = await Promise.all(orders.map(async (o) => (await api.get(`/v1/orders/${o.id}`)).body));
      const payments = await Promise.all(orders.map(async (o) => (await api.get(`/v1/payments?order=${o.id}`)).body.data as { id: string; amount: number; method: string }[]));
      return {
        orders: full.map((o) => ({ id: o.id as string, number: o.order_number as string, lines: o.items.map((l: any) => `${l.id} ${l.name}`) as string[] })),
        payments: payments.flat().map((p) => `${p.id} ${p.method} ${p.amount}`),
      };
    };
    const atHub = await everything(pair.hubApi());
    expect(atHub).toEqual(await everything(pair.cloudApi()));
    const names = atHub.orders.map((o) => o.lines.map((l) => l.split(' ').slice(1).join(' ')));
    expect(names.sort((a, b) => b.length - a.length || a.join().localeCompare(b.join()))).toEqual([['Steak', 'Lamb chops'], ['Steak', 'Lamb chops'], ['Steak']]);
    expect(new Set(atHub.orders.map((o) => o.number)).size).toBe(3);
    expect(atHub.payments.map((p) => p.split(' ').slice(1).join(' ')).sort()).toEqual([`cash ${table1.amount_due}`, `cash ${table2.amount_due}`].sort());
  }, 150_000); // 150 s: a kill -9, the line cut and restored, a restart and two convergences, driven through Chromium (61 s at load 22)
});

/** Opens table `n`'s check from the floor. */
async function openTable(tablet: Page, n: number): Promise<void> {
  await tablet.locator(`[data-table="${n}"]`).click();
  await tablet.getByRole('heading', { name: `Table ${n}` }).waitFor();
}

/** Rings `item` in at the open table and sends it. */
async function ringIn(tablet: Page, item: string): Promise<void> {
  await tablet.getByRole('button', { name: new RegExp(`^${item}`) }).click();
  await tablet.getByRole('dialog').getByRole('button', { name: 'Add', exact: true }).click();
  await tablet.getByRole('button', { name: 'Send' }).click();
}

/** Table `n`'s open check (or the check `id`) as `api`'s side has it. */
async function checkAt(api: ApiClient, n: number, id?: string): Promise<any> {
  if (!id) {
    const table = ((await api.get('/v1/tables')).body.data as { id: string; number: number }[]).find((x) => x.number === n)!;
    const open = ((await api.get(`/v1/orders?table=${table.id}`)).body.data as { id: string; status: string }[]).find((o) => !['completed', 'cancelled'].includes(o.status));
    if (!open) return null;
    id = open.id;
  }
  return (await api.get(`/v1/orders/${id}`)).body;
}
