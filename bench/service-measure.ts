import type { Browser, BrowserContext, Page } from 'playwright-core';
import { provisionRestaurant } from '../server/domain/restaurants/provision.ts';
import type { Services } from '../server/services.ts';
import { ApiClient } from '../test/helpers/server.ts';

/** A tablet held upright, as the service page is built for (the browser tests use the same). */
export const TABLET = { viewport: { width: 800, height: 1280 }, locale: 'en-GB' };
const PASSWORD = 'a bench password that is long';

/**
 * A tablet signed in as a server. The bench signs in with a password rather than the PIN pad,
 * which needs a device a manager trusted first; the page after sign-in is the same.
 */
export async function serverTablet(browser: Browser, url: string, api: ApiClient, who: string): Promise<BrowserContext> {
  const email = `${who}-${Date.now()}@bench.example`;
  const staff = await api.post('/v1/staff', { name: `Bench ${who}`, email, role: 'server' });
  if (staff.status !== 201) throw new Error(`staff: ${staff.status} ${JSON.stringify(staff.body)}`);
  const set = await api.post(`/v1/staff/${staff.body.id}/password`, { password: PASSWORD });
  if (set.status !== 200) throw new Error(`password: ${set.status} ${JSON.stringify(set.body)}`);
  const context = await browser.newContext(TABLET);
  // tsx keeps function names with a helper the page does not have; functions sent to page.evaluate carry it
  await context.addInitScript('globalThis.__name = (f) => f');
  const signIn = await context.request.post(`${url}/v1/auth/login`, { data: { email, password: PASSWORD } });
  if (!signIn.ok()) throw new Error(`sign-in: ${signIn.status()} ${await signIn.text()}`);
  return context;
}

/** Tables of their own for the taps, so each Send opens a new check (a new ticket on the screens). */
export async function benchTables(api: ApiClient, count: number): Promise<{ id: string; number: number }[]> {
  const out = [];
  for (let i = 1; i <= count; i++) {
    const r = await api.post('/v1/tables', { number: 100 + i, capacity: 4, zone: 'Bench' });
    if (r.status !== 201) throw new Error(`table: ${r.status} ${JSON.stringify(r.body)}`);
    out.push({ id: r.body.id as string, number: r.body.number as number });
  }
  return out;
}

/**
 * A server at work on the service page: for each table, tap it, tap the item, Add, Send, back to
 * the floor. The wall clock of each tap on Send is taken in the page (a capturing listener runs
 * before the page's own); answers the order each tap made with that time.
 */
export async function tapOrders(page: Page, url: string, api: ApiClient, tables: { id: string; number: number }[], item: RegExp): Promise<Map<string, number>> {
  await page.goto(`${url}/app/service`);
  await page.locator(`[data-table="${tables[0]!.number}"]`).waitFor();
  await page.evaluate(() => {
    const w = globalThis as any;
    w.document.addEventListener('click', (e: any) => {
      if (e.target.closest?.('button')?.textContent?.trim() === 'Send') w.__tap = Date.now();
    }, true);
  });
  const taps = new Map<string, number>();
  for (const tb of tables) {
    // taps as DOM clicks: with 20 screen windows painting beside it, Playwright's wait for a
    // "stable" element (two equal frames) did not end on the shared box
    await page.locator(`[data-table="${tb.number}"]`).dispatchEvent('click');
    await page.getByRole('button', { name: item }).dispatchEvent('click');
    await page.getByRole('button', { name: 'Add', exact: true }).dispatchEvent('click');
    await page.getByRole('button', { name: 'Send', exact: true }).dispatchEvent('click');
    await page.locator('.check-total').waitFor();
    const at: number = await page.evaluate(() => (globalThis as any).__tap);
    const order = (await api.get(`/v1/orders?table=${tb.id}`)).body.data[0];
    taps.set(order.id, at);
    await page.getByRole('button', { name: 'Floor', exact: true }).dispatchEvent('click');
    await page.locator(`[data-table="${tb.number}"]`).waitFor();
  }
  return taps;
}

/** Slows the page's CPU as a cheap tablet's (the same × 4 as the guest menu's phone profile). */
async function slowCpu(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
}

/**
 * In the page, from its first script on: when the floor plan's first table is in the page, and
 * when a task runs after the frame that painted it (the table can then take a tap). Read as
 * `performance.now()`, from the start of the navigation.
 */
const FLOOR_PAINTED = `(() => {
  const w = globalThis;
  const seen = new MutationObserver(() => {
    if (!w.document.querySelector('[data-table]')) return;
    seen.disconnect();
    w.__floorInPage = performance.now();
    // told on the console: waiting through Playwright would run its injected script in the
    // slowed page (150–200 ms of its main thread at × 4) while the page loads
    w.requestAnimationFrame(() => setTimeout(() => console.debug('comanda:floor-painted', (w.__floorPainted = performance.now())), 0));
  });
  seen.observe(w.document, { childList: true, subtree: true });
})()`;

export interface InteractiveResult {
  /** wall clock: goto → the page tells the floor is painted (on its console) */
  runs: number[];
  /** in the page: navigation start → the floor painted and a task after it */
  painted: number[];
  js_kb: number;
}

/** One cold load (a new browser context) of the service page on a signed-in tablet, CPU × 4. */
async function coldLoad(browser: Browser, url: string, api: ApiClient, who: string): Promise<{ wall: number; painted: number; js: number }> {
  const context = await serverTablet(browser, url, api, who);
  try {
    await context.addInitScript(FLOOR_PAINTED);
    const page = await context.newPage();
    await slowCpu(context, page);
    const painted = new Promise<number>((resolve) => page.on('console', (m) => m.text().startsWith('comanda:floor-painted ') && resolve(Number(m.text().split(' ')[1]))));
    const t0 = Date.now();
    await page.goto(`${url}/app/service`);
    const inPage = await painted;
    const wall = Date.now() - t0;
    return {
      wall,
      painted: Math.round(inPage),
      js: await page.evaluate(() =>
        (performance.getEntriesByType('resource') as any[]).filter((e) => e.name.endsWith('.js')).reduce((s, e) => s + e.encodedBodySize, 0),
      ),
    };
  } finally {
    await context.close();
  }
}

/**
 * The service page opened cold on a signed-in tablet with the CPU × 4 until the floor plan's
 * tables can be tapped; the hub is on the venue's network, so no network throttling. `loads`
 * cold loads (a new browser context each); answers each and the JavaScript fetched (compressed).
 */
export async function serviceInteractive(browser: Browser, url: string, api: ApiClient, loads = 3): Promise<InteractiveResult> {
  const out: InteractiveResult = { runs: [], painted: [], js_kb: 0 };
  for (let i = 0; i < loads; i++) {
    const r = await coldLoad(browser, url, api, `tti${i}`);
    out.runs.push(r.wall);
    out.painted.push(r.painted);
    out.js_kb = Math.round(r.js / 1024);
  }
  return out;
}

/**
 * This build against another (`BENCH_WEB_BEFORE=dir`, a copy of app/web/dist made from an
 * older commit), served by a second server on the same database: cold loads taken in turns,
 * so both see the same load on the shared box.
 */
export async function serviceInteractiveInTurns(browser: Browser, urls: { before: string; after: string }, api: ApiClient, loads = 5): Promise<{ before: InteractiveResult; after: InteractiveResult }> {
  const res = { before: { runs: [], painted: [], js_kb: 0 } as InteractiveResult, after: { runs: [], painted: [], js_kb: 0 } as InteractiveResult };
  for (let i = 0; i < loads; i++) {
    for (const which of i % 2 ? (['after', 'before'] as const) : (['before', 'after'] as const)) {
      const r = await coldLoad(browser, urls[which], api, `${which}${i}`);
      res[which].runs.push(r.wall);
      res[which].painted.push(r.painted);
      res[which].js_kb = Math.round(r.js / 1024);
    }
  }
  return res;
}

export interface GridResult {
  items: number;
  /** tap on the table → its check with its 500-item grid painted (fetching the menu included) */
  open_ms: number;
  /** a category (50 items) → All (500 items) painted, median of five */
  all_ms: number;
  keystrokes: number;
  keystroke_ms: { p50: number; p95: number; max: number };
}

const WORDS = ['tomato', 'basil', 'burrata', 'pasta', 'risotto', 'lemon', 'truffle', 'salmon', 'pesto', 'garlic', 'olive', 'ricotta', 'pepper', 'fennel', 'walnut', 'porcini', 'saffron', 'pistachio', 'anchovy', 'caper'];
const DISHES = ['salad', 'tart', 'soup', 'gnocchi', 'pizza', 'bruschetta', 'crudo', 'fritto', 'ravioli', 'panino'];

/**
 * A venue of its own with 500 items in 10 categories, on a tablet with the CPU × 4: the grid
 * painted when a table is opened and when "All" is chosen, and every keystroke of a search
 * (key down → the filtered grid painted: the next frame, then a task after it). With several
 * `urls` (builds served on the same database), `rounds` rounds each, taken in turns; answers one
 * result per url, the keystrokes of all its rounds together.
 */
export async function measureGrid(browser: Browser, urls: string[], services: Services, rounds = 1): Promise<GridResult[]> {
  const url = urls[0]!;
  const r = await provisionRestaurant(services.tx, Date.now(), { name: 'Grid Bistro', slug: `grid-bench-${Date.now().toString(36)}`, ownerPassword: true });
  const api = new ApiClient(url, r.keys.secret);
  const cats: string[] = [];
  for (const d of DISHES) cats.push((await api.post('/v1/menu_categories', { name: `${d[0]!.toUpperCase()}${d.slice(1)}` })).body.id);
  const jobs = [];
  for (let n = 0; n < 500; n++) {
    const name = `${WORDS[n % WORDS.length]} ${WORDS[(n * 7 + 3) % WORDS.length]} ${DISHES[n % DISHES.length]} ${n + 1}`;
    jobs.push(api.post('/v1/menu_items', { name, category: cats[n % cats.length], price: 800 + (n % 40) * 50 }));
    if (jobs.length === 20) (await Promise.all(jobs.splice(0))).forEach((x) => { if (x.status !== 201) throw new Error(`item: ${x.status}`); });
  }
  await Promise.all(jobs);
  await api.post('/v1/tables', { number: 1, capacity: 4 });
  // one sign-in: the builds share the database, and a cookie is the host's whatever the port
  const context = await serverTablet(browser, url, api, 'grid');
  const got = urls.map(() => ({ open: [] as number[], all: [] as number[], keys: [] as number[] }));
  try {
    for (let round = 0; round < rounds; round++) {
      const order = urls.map((_, i) => i);
      if (round % 2) order.reverse();
      for (const i of order) {
        const one = await gridOnce(context, urls[i]!);
        got[i]!.open.push(one.open);
        got[i]!.all.push(...one.all);
        got[i]!.keys.push(...one.keys);
      }
    }
  } finally {
    await context.close();
  }
  const med = (xs: number[]) => Math.round([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!);
  return got.map(({ open, all, keys }) => {
    keys.sort((a, b) => a - b);
    const q = (x: number) => Math.round(keys[Math.min(keys.length - 1, Math.floor(keys.length * x))]!);
    return { items: 500, open_ms: med(open), all_ms: med(all), keystrokes: keys.length, keystroke_ms: { p50: q(0.5), p95: q(0.95), max: Math.round(keys[keys.length - 1]!) } };
  });
}

/** One page of the grid venue at `url`: its table opened, "All" five times, the search typed. */
async function gridOnce(context: BrowserContext, url: string): Promise<{ open: number; all: number[]; keys: number[] }> {
  const page = await context.newPage();
  try {
    await page.goto(`${url}/app/service`);
    await page.locator('[data-table="1"]').waitFor();
    await slowCpu(context, page);
    // in the page: tap `target` (a table, or the "All" chip), then wait for a frame with `n`
    // tiles and for a task after that frame (its layout and paint done)
    const paintedAfter = (target: 'table' | 'all', n: number) =>
      page.evaluate(
        ([target, n]) =>
          new Promise<number>((resolve) => {
            const w = globalThis as any;
            const d = w.document;
            const t0 = performance.now();
            const el = target === 'table' ? d.querySelector('[data-table="1"]') : [...d.querySelectorAll('button.chip')].find((b: any) => b.textContent === 'All');
            el.click();
            // the grid holds n items, of which it shows the first page (its data-page, else 80
            // tiles) until scrolled; tiles that do not match may stay in the page, hidden
            const check = () => (d.querySelector('.tile-grid')?.dataset.total === String(n) && d.querySelectorAll('.tile-grid > li:not([hidden])').length >= Math.min(n, Number(d.querySelector('.tile-grid')?.dataset.page ?? 80)) ? setTimeout(() => resolve(performance.now() - t0), 0) : w.requestAnimationFrame(check));
            w.requestAnimationFrame(check);
          }),
        [target, n] as const,
      );
    const open = await paintedAfter('table', 500);
    const all: number[] = [];
    for (let i = 0; i < 5; i++) {
      await page.getByRole('button', { name: 'Salad', exact: true }).click();
      await page.waitForFunction(() => (globalThis as any).document.querySelector('.tile-grid')?.dataset.total === '50');
      all.push(await paintedAfter('all', 500));
    }
    // each keystroke: key down → the grid it filters painted
    await page.evaluate(() => {
      const w = globalThis as any;
      w.__keys = [];
      w.document.addEventListener('keydown', () => {
        const t0 = performance.now();
        w.requestAnimationFrame(() => setTimeout(() => w.__keys.push(performance.now() - t0), 0));
      }, true);
    });
    const search = page.getByRole('searchbox');
    await search.click();
    for (const q of ['truffle', 'pasta 1', 'lemon tart', 'saffron']) {
      await page.keyboard.type(q, { delay: 120 });
      for (let i = 0; i < q.length; i++) await page.keyboard.press('Backspace', { delay: 40 }).then(() => page.waitForTimeout(80));
    }
    await page.waitForTimeout(500);
    const keys: number[] = await page.evaluate(() => (globalThis as any).__keys);
    return { open, all, keys };
  } finally {
    await page.close();
  }
}
