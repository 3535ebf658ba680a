import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock.ts';
import { launch, pairScreen, shot, IN_BROWSER } from '../backoffice/browser.ts';
import { seedMenu, type Menu } from '../orders/fixtures.ts';
import { startHub, type ApiClient, type TestHub } from '../helpers/server.ts';

/**
 * What a new order and the clock's tick change on a kitchen screen with a backlog: a screen
 * driven by orders every 100 ms must not rebuild or re-lay out what did not change (see
 * docs/contributors/performance.md, kitchen screens). Watched from the page with a
 * MutationObserver on the ticket list; no timings.
 */
describe('kitchen screen updates in the browser', IN_BROWSER, () => {
  let hub: TestHub;
  let menu: Menu;
  let till: ApiClient;
  let browser: Browser;
  let grill: Page;

  beforeAll(async () => {
    // the hub's clock is the real time: the ages on the tickets run on the tablet's clock
    hub = await startHub('sqlite', { clock: new ManualClock(Date.now()) });
    menu = await seedMenu(hub);
    till = hub.api.withKey(hub.keys.widget);
    browser = await launch();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
    await context.addInitScript("localStorage.setItem('comanda.sound', 'off')");
    grill = await context.newPage();
    grill.setDefaultTimeout(10_000);
    await pairScreen(grill, hub, { name: 'Grill tablet', station: 'grill' });
    await grill.getByText('No open tickets').waitFor();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await hub?.close();
  });

  const place = async (name: string) => {
    hub.clock.set(Date.now());
    const r = await till.post('/public/orders', { type: 'takeout', customerName: name, items: [{ menuItemId: menu.steak, quantity: 1, modifiers: ['Rare'] }] });
    expect(r.status).toBe(201);
    return r.body as { id: string };
  };
  /** from now on, what changes inside the ticket list */
  const watch = () =>
    grill.evaluate(() => {
      const w = globalThis as any;
      w.__changes = { added: [] as string[], removed: [] as string[], attributes: [] as string[], texts: 0 };
      w.__observer?.disconnect();
      w.__observer = new w.MutationObserver((records: any[]) => {
        for (const r of records) {
          for (const n of r.addedNodes) w.__changes.added.push(n.nodeName);
          for (const n of r.removedNodes) w.__changes.removed.push(n.nodeName);
          if (r.type === 'attributes') w.__changes.attributes.push(`${r.target.nodeName}.${r.attributeName}`);
          if (r.type === 'characterData') w.__changes.texts++;
        }
      });
      w.__observer.observe(w.document.querySelector('main.kds-tickets'), { childList: true, subtree: true, attributes: true, characterData: true });
    });
  const changes = () => grill.evaluate(() => (globalThis as any).__changes as { added: string[]; removed: string[]; attributes: string[]; texts: number });

  it('loads no preact/compat (its hook on every element made each update dearer)', async () => {
    const scripts = await grill.evaluate(() => performance.getEntriesByType('resource').map((r) => r.name).filter((n) => n.endsWith('.js')));
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((n) => /\/compat-/.test(n))).toEqual([]);
  });

  it('a new ticket adds its card and nothing else; the tick that ends "just in" sets a class, and no card is built again', async () => {
    for (let i = 0; i < 3; i++) await place(`Early ${i}`);
    await expect.poll(() => grill.locator('article.ticket').count()).toBe(3);
    await watch();
    const fresh = await place('Fresh');
    const card = grill.locator(`[data-order="${fresh.id}"]`);
    await card.getByText('Just in').waitFor();
    // "just in" goes off after a few seconds, on the clock's tick
    await expect.poll(() => card.getAttribute('class'), { timeout: 10_000 }).not.toContain('ticket-new');
    expect(await card.getByText('Just in').isVisible()).toBe(false);
    const seen = await changes();
    // the one new card; the old build also took the "Just in" tag out of each card again
    expect(seen.added).toEqual(['ARTICLE']);
    expect(seen.removed).toEqual([]);
    expect(seen.attributes.every((a) => a === 'ARTICLE.class')).toBe(true);
    expect(seen.texts).toBeGreaterThan(0); // the ages still run
  });

  it('with a backlog it draws a few screenfuls in full; a new order at the end is its frame and number until the cook scrolls near it', async () => {
    for (let i = 0; i < 26; i++) await place(`Backlog ${i}`);
    const full = grill.locator('article.ticket:not(.ticket-later)');
    const later = grill.locator('article.ticket-later');
    await expect.poll(() => grill.locator('article.ticket').count()).toBe(30);
    expect(await full.count()).toBe(24);
    await watch();
    const last = await place('Last');
    const lastCard = grill.locator(`[data-order="${last.id}"]`);
    await lastCard.waitFor({ state: 'attached' });
    // in the list, in its place, with its number; nothing else of it built, nothing else changed
    expect(await grill.locator('article.ticket').evaluateAll((els) => els.map((e) => e.getAttribute('data-order')).at(-1))).toBe(last.id);
    expect(await lastCard.getAttribute('class')).toContain('ticket-later');
    expect(await lastCard.locator('*').count()).toBe(1);
    await expect.poll(() => grill.locator('.allday-n').first().textContent()).toBe('31');
    const seen = await changes();
    expect(seen.added).toEqual(['ARTICLE']);
    expect(seen.removed).toEqual([]);
    expect(seen.attributes.filter((a) => a !== 'ARTICLE.class')).toEqual([]);
    // the cook scrolls down: the rest is drawn in full before it comes into view
    await grill.locator('main.kds-tickets').evaluate((m) => (m.scrollTop = m.scrollHeight));
    await expect.poll(() => later.count()).toBe(0);
    expect(await full.count()).toBe(31);
    await lastCard.getByRole('button', { name: 'Bump' }).waitFor();
    await shot(grill, 'kds-backlog-end');
  });

  /**
   * The frames the page's main thread drew while `during` ran, and how many of them painted
   * nothing: counted from a Chromium trace (DevTools' timeline events), not timed.
   */
  const frames = async (during: () => Promise<void>) => {
    const cdp = await grill.context().newCDPSession(grill);
    const events: { name: string; ph: string; pid: number; tid: number; ts: number }[] = [];
    cdp.on('Tracing.dataCollected', (d) => events.push(...(d.value as unknown as typeof events)));
    const done = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
    await cdp.send('Tracing.start', { traceConfig: { includedCategories: ['devtools.timeline', 'disabled-by-default-devtools.timeline.frame'] }, transferMode: 'ReportEvents' });
    await during();
    await cdp.send('Tracing.end');
    await done;
    await cdp.detach();
    const marks = events.filter((e) => e.name === 'BeginMainThreadFrame' || (e.name === 'Paint' && e.ph === 'X')).sort((a, b) => a.ts - b.ts);
    let drawn = 0;
    let empty = 0;
    // when the frame before on that thread painted (µs); an empty frame counts only right after
    // one (within 50 ms: the one a new box's size watch asks for came about 13 ms later). Others
    // (an animation's end, a timer's tick) are not the order's doing.
    const paintedAt = new Map<number, number>();
    for (const [i, e] of marks.entries()) {
      if (e.name !== 'BeginMainThreadFrame') continue;
      drawn++;
      const next = marks.slice(i + 1).find((x) => x.name === 'BeginMainThreadFrame' && x.tid === e.tid);
      const painted = marks.slice(i + 1).some((x) => x.name === 'Paint' && x.tid === e.tid && (!next || x.ts < next.ts));
      if (!painted && e.ts - (paintedAt.get(e.tid) ?? -Infinity) <= 50_000) empty++;
      if (painted) paintedAt.set(e.tid, e.ts);
    }
    return { drawn, empty };
  };

  it('a backlog\'s new order costs the screen one frame, not a second, empty one', async () => {
    // back to the top, and a backlog past what is drawn in full: new orders come in as frames and numbers
    await grill.locator('main.kds-tickets').evaluate((m) => (m.scrollTop = 0));
    // (scrolled to the end before, every ticket so far is drawn in full, and a page more with them)
    for (let i = 0; !(await grill.locator('article.ticket-later').count()); i++) {
      const o = await place(`More ${i}`);
      await grill.locator(`[data-order="${o.id}"]`).waitFor({ state: 'attached' });
    }
    const count = await grill.locator('article.ticket').count();
    const seen = await frames(async () => {
      for (let i = 0; i < 3; i++) {
        const o = await place(`Traced ${i}`);
        await grill.locator(`[data-order="${o.id}"].ticket-later`).waitFor({ state: 'attached' });
        await expect.poll(() => grill.locator('.allday-n').first().textContent()).toBe(String(count + i + 1));
        // the frame Chromium asked for after one (the build before: about 13 ms later) falls in here
        await grill.evaluate(() => new Promise((resolve) => setTimeout(resolve, 100)));
      }
    });
    // each order drew (the ticket's box, the all-day count); the build before also drew one
    // empty frame for each, asked for by `contain-intrinsic-size: auto` watching the new box's size
    expect(seen.drawn).toBeGreaterThanOrEqual(3);
    expect(seen.empty).toBe(0);
  });
});
