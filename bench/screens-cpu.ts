/**
 * What each kitchen screen costs the box, by Chromium process (renderer, GPU/display, browser),
 * while orders arrive at a steady rate; and, for the first screen, its main thread's time by
 * kind (DevTools' Performance metrics). CPU seconds hold better than latency on a shared box:
 * compare two builds in turns with WEB_DIST (a copy of app/web/dist from another commit).
 *
 *   node --import tsx bench/screens-cpu.ts            N=3 screens, 10 orders/s for 10 s
 *   N=20 RATE=10 SECS=10 WEB_DIST=/tmp/dist-before node --import tsx bench/screens-cpu.ts
 *   INJECT="<script run in every page first>"        e.g. a style that hides a part, to price it
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { openDatabase } from '../server/db/database.ts';
import { provisionRestaurant } from '../server/domain/restaurants/provision.ts';
import { silentLogger } from '../server/logger.ts';
import { createServer } from '../server/server.ts';
import { ApiClient } from '../test/helpers/server.ts';
import { launchChromium } from './screens-measure.ts';

const N = Number(process.env.N ?? 3);
const RATE = Number(process.env.RATE ?? 10);
const SECS = Number(process.env.SECS ?? 10);
const SOUND_OFF = "localStorage.setItem('comanda.sound', 'off')";

/** CPU seconds so far of every Chromium process, keyed by pid and its kind */
function chromiumCpu(): Map<string, number> {
  const m = new Map<string, number>();
  for (const line of execFileSync('ps', ['-eo', 'pid,args', '--no-headers']).toString().trim().split('\n')) {
    const [pid, ...rest] = line.trim().split(/\s+/);
    const args = rest.join(' ');
    if (!/chrom/.test(rest[0] ?? '')) continue;
    const kind = /--type=renderer/.test(args) ? 'renderer' : /--type=gpu/.test(args) ? 'gpu' : /--type=/.test(args) ? 'other' : 'browser';
    try {
      const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      m.set(`${pid} ${kind}`, (Number(f[11]) + Number(f[12])) / 100);
    } catch {
      // the process ended between ps and the read
    }
  }
  return m;
}
function spent(a: Map<string, number>, b: Map<string, number>): Record<string, number> {
  const by: Record<string, number> = {};
  for (const [k, v] of b) {
    const kind = k.split(' ')[1]!;
    by[kind] = +((by[kind] ?? 0) + v - (a.get(k) ?? 0)).toFixed(2);
  }
  return by;
}

const database = await openDatabase({ dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-screens-cpu-')) });
const server = createServer({ database, logger: silentLogger, config: { rateLimit: false, guestRateLimit: false, realtime: { maxSocketsPerAddress: 1_000 } }, ...(process.env.WEB_DIST ? { webDist: path.resolve(process.env.WEB_DIST) } : {}) });
const { url } = await server.listen(0, '127.0.0.1');
const r = await provisionRestaurant(server.services.tx, Date.now(), { name: 'Screens CPU', slug: 'screens-cpu', ownerPassword: true });
const api = new ApiClient(url, r.keys.secret);
const till = api.withKey(r.keys.widget);
await api.post('/v1/stations', { key: 'kds-bench', name: 'KDS bench' });
const cat = (await api.post('/v1/menu_categories', { name: 'KDS bench', station: 'kds-bench' })).body;
const item = (await api.post('/v1/menu_items', { name: 'Steak', category: cat.id, price: 2450 })).body;
const code = (await api.post('/v1/devices/pairing_codes', { name: 'Bench grill', station: 'kds-bench' })).body.code;
const browser = await launchChromium();
try {
  const pages = [];
  let paired: Awaited<ReturnType<Awaited<ReturnType<typeof browser.newContext>>['storageState']>> | undefined;
  for (let i = 0; i < N; i++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, storageState: paired });
    await context.addInitScript(SOUND_OFF);
    if (process.env.INJECT) await context.addInitScript(process.env.INJECT);
    const page = await context.newPage();
    if (!paired) {
      await page.goto(`${url}/screens/pair?code=${code}`);
      await page.getByRole('button', { name: 'Pair' }).click();
      paired = await context.storageState();
    } else await page.goto(`${url}/screens/kitchen/kds-bench`);
    await page.getByText('No open tickets').waitFor();
    pages.push(page);
  }
  const cdp = await pages[0]!.context().newCDPSession(pages[0]!);
  await cdp.send('Performance.enable');
  const metrics = async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
  const m0 = await metrics();
  const c0 = chromiumCpu();
  const started = Date.now();
  for (let i = 0; i < SECS * RATE; i++) {
    await new Promise((res) => setTimeout(res, Math.max(0, started + (i * 1000) / RATE - Date.now())));
    void till.post('/public/orders', { type: 'takeout', customerName: `Guest ${i}`, items: [{ menuItemId: item.id, quantity: 1 }] });
  }
  await new Promise((res) => setTimeout(res, 3000));
  const cpu = spent(c0, chromiumCpu());
  const m1 = await metrics();
  const orders = SECS * RATE;
  const perScreenMs = (s: number) => ((s * 1000) / N / orders).toFixed(1);
  console.log(`${N} screens, ${orders} orders at ${RATE}/s, load average ${os.loadavg()[0]!.toFixed(1)}`);
  console.log(`CPU by Chromium process: ${Object.entries(cpu).map(([k, v]) => `${k} ${v} s (${perScreenMs(v)} ms a screen an order)`).join(', ')}`);
  const kinds = ['TaskDuration', 'ScriptDuration', 'LayoutDuration', 'RecalcStyleDuration'];
  console.log(`first screen's main thread, ms an order: ${kinds.map((k) => `${k.replace('Duration', '')} ${(((m1[k]! - m0[k]!) * 1000) / orders).toFixed(1)}`).join(', ')}`);
} finally {
  await browser.close();
  await server.close();
}
