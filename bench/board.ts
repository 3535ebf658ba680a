// node --import tsx bench/board.ts [seconds] [orders-per-second]
// The back office's live orders board in a real (headless) Chromium while orders arrive over
// the API at a steady rate: does the page keep up, and how many frames does it drop? Frame
// gaps are measured in the page with requestAnimationFrame; a gap over 50 ms is a visible
// stall (three 60 Hz frames missed). Prints one JSON line.
import { chromium } from 'playwright-core';
import { openDatabase } from '../server/db/database.ts';
import { silentLogger } from '../server/logger.ts';
import { createServer } from '../server/server.ts';
import { ApiClient } from '../test/helpers/server.ts';

const seconds = Number(process.argv[2] ?? 20);
const rate = Number(process.argv[3] ?? 10);

const server = createServer({ database: await openDatabase({ dataDir: ':memory:' }), logger: silentLogger, config: { rateLimit: false } });
const { url } = await server.listen(0, '127.0.0.1');
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
try {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  // set up through the API the page itself uses
  const setup = await page.request.post(`${url}/v1/auth/setup`, {
    data: { restaurant_name: 'Bench Bistro', timezone: 'UTC', currency: 'eur', owner_name: 'Bench', owner_email: 'bench@example.com', owner_password: 'bench password 1' },
  });
  if (!setup.ok()) throw new Error(await setup.text());
  const csrf = (await page.context().cookies()).find((c) => c.name === 'comanda_csrf')!.value;
  const made = await page.request.post(`${url}/v1/api_keys`, { data: { name: 'bench' }, headers: { 'x-csrf-token': csrf } });
  const api = new ApiClient(url, (await made.json()).secret);
  const cat = (await api.post('/v1/menu_categories', { name: 'Mains' })).body;
  const item = (await api.post('/v1/menu_items', { name: 'Soup', category: cat.id, price: 650 })).body;

  await page.goto(`${url}/app/orders`);
  await page.getByTestId('orders-board').or(page.getByText('No open orders')).first().waitFor();
  await page.locator('.live-banner').waitFor({ state: 'detached' });
  // runs in the page, given as text (tsx would wrap a named function in a helper the page lacks)
  await page.evaluate(`(() => {
    window.__gaps = [];
    let last = performance.now();
    const tick = (t) => {
      window.__gaps.push(t - last);
      last = t;
      if (!window.__stop) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  })()`);

  const ids: string[] = [];
  const started = Date.now();
  const latencies: number[] = [];
  for (let i = 0; i < seconds * rate; i++) {
    const due = started + (i * 1000) / rate;
    await new Promise((r) => setTimeout(r, Math.max(0, due - Date.now())));
    const sent = Date.now();
    const o = await api.post('/v1/orders', { type: 'takeout', customer_name: `Guest ${i}`, items: [{ menu_item: item.id, quantity: 1 }] });
    await api.patch(`/v1/orders/${o.body.id}`, { status: 'placed' });
    ids.push(o.body.id);
    // every tenth order: how long until it is on screen
    if (i % 10 === 0) {
      await page.locator(`[data-order="${o.body.id}"]`).waitFor();
      latencies.push(Date.now() - sent);
    }
  }
  const elapsed = (Date.now() - started) / 1000;
  await page.locator(`[data-order="${ids[ids.length - 1]}"]`).waitFor();
  const shown = await page.locator('.order-card').count();
  const gaps: number[] = await page.evaluate('(window.__stop = true, window.__gaps)');
  gaps.shift();
  gaps.sort((a, b) => a - b);
  const pct = (p: number) => Math.round(gaps[Math.min(gaps.length - 1, Math.floor(gaps.length * p))] * 10) / 10;
  latencies.sort((a, b) => a - b);
  console.log(
    JSON.stringify({
      orders: ids.length,
      achieved_per_second: Math.round((ids.length / elapsed) * 10) / 10,
      on_board: shown,
      frames: gaps.length,
      frame_gap_ms: { p50: pct(0.5), p99: pct(0.99), max: Math.round(gaps[gaps.length - 1]) },
      stalls_over_50ms: gaps.filter((g) => g > 50).length,
      order_to_screen_ms: { p50: latencies[Math.floor(latencies.length / 2)], max: latencies[latencies.length - 1] },
    }),
  );
} finally {
  await browser.close();
  await server.close();
}
