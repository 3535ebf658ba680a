import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect, vi } from 'vitest';
import { startHub, type TestHub } from '../helpers/server.ts';

const require = createRequire(import.meta.url);
const AXE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
/**
 * The browser suites' options. A test in a real browser against a real hub, on a shared two-core
 * box next to PostgreSQL, can lose a race the product does not (a pointer on a chart that is being
 * redrawn): it runs once more before it fails. A test that is broken fails both times; one that
 * passed only the second time is named by `.ci/run` as flaky, to be fixed rather than forgotten.
 */
export const IN_BROWSER = { retry: 1 } as const;

export const SHOTS = path.resolve('.tmp/screenshots');

// Every browser test imports this file. A test drives a real Chromium and a hub on a shared
// 2-core box, where one step can take seconds under load: 90 s guards against a hung test
// (it measures nothing; no test asserts a timing).
vi.setConfig({ testTimeout: 90_000 });

/** The owner the back-office browser tests set a venue up with and sign in as. */
export const OWNER = { name: 'Ada Owner', email: 'ada@example.com', password: 'a very good password' };

/** The first-run setup, made from the hub itself (no setup code): a UTC venue in euros, owned by OWNER. */
export async function setUpVenue(url: string, restaurantName: string): Promise<void> {
  const setup = await fetch(`${url}/v1/auth/setup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ restaurant_name: restaurantName, timezone: 'UTC', currency: 'eur', owner_name: OWNER.name, owner_email: OWNER.email, owner_password: OWNER.password }),
  });
  expect(setup.status).toBeLessThan(300);
}

/** OWNER signs in on the (English) sign-in page and lands on Today. */
export async function signIn(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/app/login`);
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Today' }).waitFor();
}

/** A fresh SQLite hub set up as `restaurantName`, and OWNER signed in on a 1280×800 English page. */
export async function signedInHub(restaurantName: string): Promise<{ hub: TestHub; browser: Browser; page: Page; close: () => Promise<void> }> {
  const hub = await startHub('sqlite');
  await setUpVenue(hub.url, restaurantName);
  const browser = await launch();
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-GB' })).newPage();
  page.setDefaultTimeout(10_000);
  await signIn(page, hub.url);
  return { hub, browser, page, close: async () => (await browser.close(), await hub.close()) };
}

/** Debian's Chromium, headless, with nothing reaching out to the internet. */
export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    // without the omnibox's WebUI: headless Chromium otherwise loads that popup in a renderer
    // of its own beside each window, which kept about half a core busy (bench/README.md)
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-dev-shm-usage', '--disable-features=WebUIOmniboxPopup,WebUIOmniboxFullPopup,WebUIOmniboxAimPopup'],
  });
}

/** No serious or critical accessibility violation on the page as it is now. */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  // evaluated over the DevTools protocol: the page's own CSP (script-src 'self') stays on
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(AXE);
  // functions passed to evaluate run in the page: its globals are reached through globalThis
  const result = await page.evaluate(async () => {
    const g = globalThis as any;
    const r = await g.axe.run(g.document, { resultTypes: ['violations'] });
    return r.violations.map((v: any) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n: any) => n.target.join(' ')) }));
  });
  const bad = result.filter((v: { impact: string }) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad, `${what}: ${JSON.stringify(bad, null, 1)}`).toEqual([]);
}

/** Every button, field and menu link at least 44 px high (inline text links are exempt, as in WCAG 2.5.8). */
export async function expectTouchTargets(page: Page, what: string): Promise<void> {
  const small = await page.evaluate(() => {
    const out: string[] = [];
    const els: any[] = (globalThis as any).document.querySelectorAll('button, input:not([type=checkbox]):not([type=radio]), select, textarea, .sidenav a, a.btn, a.stat, .order-card-link, .toggle');
    for (const el of els) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) continue; // not shown
      if (el.closest('.toggle') && el.tagName === 'INPUT') continue; // the switch's label is the target
      if (r.height < 43.5 || (el.matches('button, a.btn') && r.width < 43.5)) out.push(`${el.tagName.toLowerCase()} "${(el.textContent || el.getAttribute('aria-label') || '').trim().slice(0, 30)}" ${Math.round(r.width)}×${Math.round(r.height)}`);
    }
    return out;
  });
  expect(small, `${what}: targets under 44 px`).toEqual([]);
}

export async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

/** The checks every page gets: accessible, large enough targets, a screenshot to look at. */
export async function checkPage(page: Page, name: string): Promise<void> {
  await page.waitForLoadState('networkidle').catch(() => {});
  await expectAccessible(page, name);
  await expectTouchTargets(page, name);
  await shot(page, name);
}

/** A screen tablet paired as the venue pairs one: a pairing code made in the back office, its link opened, "Pair" tapped. */
export async function pairScreen(page: Page, hub: Pick<TestHub, 'url' | 'api'>, device: { name: string; station?: string }): Promise<void> {
  const code = (await hub.api.post('/v1/devices/pairing_codes', device)).body.code;
  await page.goto(`${hub.url}/screens/pair?code=${code}`);
  await page.getByRole('button', { name: 'Pair' }).click();
}
