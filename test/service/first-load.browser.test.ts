import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEB_DIST } from '../../server/http/web-app.ts';
import { launch, setUpVenue, signIn, IN_BROWSER } from '../backoffice/browser.ts';
import { startHub, type TestHub } from '../helpers/server.ts';

const TABLET = { viewport: { width: 800, height: 1280 }, locale: 'en-GB' };

/** The scripts a page's HTML names: what the browser fetches as soon as it reads the page. */
const scriptsOf = (html: string) => [...html.matchAll(/(?:src|href)="(\/app\/assets\/[^"]+\.js)"/g)].map((m) => m[1]!);

/**
 * A tablet opening the order-entry page cold: everything its first screen needs is asked for
 * with the page itself, not one thing after another as each script runs.
 */
describe("the service page's first load", IN_BROWSER, () => {
  let hub: TestHub;
  let browser: Browser;
  let signedIn: Awaited<ReturnType<BrowserContext['storageState']>>;

  beforeAll(async () => {
    hub = await startHub('sqlite');
    expect((await hub.api.post('/v1/tables', { number: 4, capacity: 4 })).status).toBe(201);
    await setUpVenue(hub.url, 'Test Bistro');
    browser = await launch();
    const context = await browser.newContext(TABLET);
    await signIn(await context.newPage(), hub.url);
    signedIn = await context.storageState();
    await context.close();
  }, 90_000); // 90 s: Chromium and a hub on a shared 2-core box, through several pages
  afterAll(async () => {
    await browser?.close();
    await hub?.close();
  });

  it("names every script it runs in the page (no chunk found late), none of another page's, and gets its first data with the page, each once", async () => {
    // a new context: nothing cached, only the session's cookies
    const context = await browser.newContext({ ...TABLET, storageState: signedIn });
    const page = await context.newPage();
    // the live feed stays silent here: its confirmation would (rightly) load the checks again
    await page.routeWebSocket(/\/realtime$/, () => {});
    const asked: { url: string; type: string }[] = [];
    page.on('request', (r) => {
      const u = new URL(r.url());
      asked.push({ url: u.pathname + u.search, type: r.resourceType() });
    });
    const answer = await page.goto(`${hub.url}/app/service`);
    await page.locator('[data-table="4"]').waitFor();
    await page.waitForLoadState('networkidle');

    const html = await answer!.text();
    const named = scriptsOf(html);
    // one script runs, the entry: a chunk it shares with index.html, when itself an entry, is
    // written as a script of its own that runs first, and drew the app before the page registered
    expect(html.match(/<script\b/g), 'scripts the page runs').toHaveLength(1);
    const scripts = asked.filter((a) => a.url.endsWith('.js')).map((a) => a.url);
    expect(scripts.length).toBeGreaterThan(2);
    expect(scripts.filter((s) => !named.includes(s))).toEqual([]);
    // the page's own code is among them: the file that holds the order-entry page
    const own = named.map((s) => fs.readFileSync(path.join(WEB_DIST, s.slice('/app'.length)), 'utf8'));
    expect(own.some((code) => code.includes('service.seat'))).toBe(true);
    // and no other page of the back office: each page is a file named after it
    const pages = fs.readdirSync(path.join(import.meta.dirname, '../../app/web/src/pages')).map((f) => f.replace(/\.tsx$/, '')).filter((p) => !p.startsWith('service'));
    const others = scripts.filter((s) => pages.some((p) => new RegExp(`/${p}-[\\w-]{8}\\.js$`).test(s)));
    expect(others).toEqual([]);

    // the session, the floor and its open checks were fetched with the page: the app's own
    // calls took those answers, so each was asked once
    const link = answer!.headers().link ?? '';
    const preloaded = [...link.matchAll(/<([^>]+)>; rel=preload; as=fetch; crossorigin/g)].map((m) => m[1]!);
    expect(preloaded).toEqual(expect.arrayContaining(['/v1/auth/session', '/v1/tables?limit=100']));
    // every open check in one request
    expect(preloaded.filter((u) => u.startsWith('/v1/orders'))).toEqual(['/v1/orders?limit=100&status=placed%2Cpreparing%2Cready%2Cserved']);
    for (const u of preloaded) expect(asked.filter((a) => a.url === u), u).toHaveLength(1);
    // nothing else was asked of the API before the floor but the seated parties of today
    expect(asked.filter((a) => a.url.startsWith('/v1/') && !preloaded.includes(a.url)).map((a) => a.url.split('?')[0])).toEqual(['/v1/reservations']);
    await context.close();
  });

  it('draws the floor in the first frame that has the service mode, with its open checks (no Loading in its place, no floor without them)', async () => {
    // an open check at table 4
    const table = (await hub.api.get('/v1/tables?limit=100')).body.data.find((x: any) => x.number === 4);
    const category = (await hub.api.post('/v1/menu_categories', { name: 'Drinks' })).body.id;
    const water = (await hub.api.post('/v1/menu_items', { name: 'Water', category, price: 300 })).body.id;
    const order = (await hub.api.post('/v1/orders', { type: 'dine_in', table: table.id, items: [{ menu_item: water, quantity: 1 }] })).body;
    expect((await hub.api.patch(`/v1/orders/${order.id}`, { status: 'placed' })).status).toBe(200);
    const context = await browser.newContext({ ...TABLET, storageState: signedIn });
    // before each frame is painted: what it would show
    await context.addInitScript(`(() => {
      const w = globalThis; w.__frames = [];
      const look = () => {
        const d = w.document;
        if (d.querySelector('.service-mode')) w.__frames.push(d.querySelector('[data-table="4"]')?.className ?? (d.querySelector('.service-mode .loading') ? 'loading' : 'empty'));
        if (!d.querySelector('[data-table="4"]')) w.requestAnimationFrame(look);
      };
      w.requestAnimationFrame(look);
    })()`);
    const page = await context.newPage();
    await page.routeWebSocket(/\/realtime$/, () => {});
    await page.goto(`${hub.url}/app/service`);
    await page.locator('[data-table="4"]').waitFor();
    const frames: string[] = await page.evaluate(() => (globalThis as any).__frames);
    expect(frames.length).toBeGreaterThan(0);
    expect(frames, 'frames of the service mode, until the floor').toEqual([expect.stringContaining('plan-order')]);
    await context.close();
  });

  it('a tablet nobody is signed in on gets its PIN pad, with no data asked for it', async () => {
    const context = await browser.newContext(TABLET);
    const page = await context.newPage();
    const answer = await page.goto(`${hub.url}/app/service`);
    expect(answer?.headers().link).toBeUndefined();
    await page.getByRole('heading', { level: 1, name: 'Who is serving?' }).waitFor();
    // the back office's other paths are the back office's page, as before
    const html = await (await page.request.get(`${hub.url}/app/orders`)).text();
    expect(html).toBe(fs.readFileSync(path.join(WEB_DIST, 'index.html'), 'utf8'));
    await context.close();
  });
});
