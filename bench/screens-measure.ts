import { chromium } from 'playwright-core';
import type { ApiClient } from '../test/helpers/server.ts';
import { benchTables, serverTablet, tapOrders } from './service-measure.ts';

/** Debian's Chromium, as the browser tests drive it, with no background throttling of windows. */
/** Chromium's features for the omnibox's WebUI popup (switched off: see launchChromium) */
export const NO_OMNIBOX_WEBUI = 'WebUIOmniboxPopup,WebUIOmniboxFullPopup,WebUIOmniboxAimPopup';

export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    // without the omnibox's WebUI: headless Chromium 156 loads its popup (a renderer of its own)
    // beside each new window, which kept one of this box's two cores busy through a page's load
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-renderer-backgrounding', '--disable-background-timer-throttling', '--disable-backgrounding-occluded-windows', `--disable-features=${NO_OMNIBOX_WEBUI}`],
  });
}

/**
 * Each screen's sound switch set to off, as a cook may set it. Twenty screens on one 2-core box
 * each keep an audio context running (a real-time audio thread apiece, mixed by one audio
 * process), and the box's first context took about 1 s to open: with the chime on, 20 screens
 * painted 201 → ticket at p50 10.2 s, p95 15.8 s; with it off, in the next run, p50 3.7 s, p95
 * 5.1 s (load average 9–22 from other work). That measured the box's audio, not the page; on
 * the venue's tablets each screen has its own. The chime is tested in the kitchen browser test.
 */
const SOUND_OFF = "localStorage.setItem('comanda.sound', 'off')";

export interface ScreensResult {
  screens: number;
  orders: number;
  per_second: number;
  paints: number;
  missing: number;
  order_to_paint_ms: { p50: number; p95: number; max: number };
  /** a server's tap on Send on the service page → that ticket painted on every screen */
  taps: number;
  tap_to_paint_ms: { p50: number; p95: number; max: number } | null;
  taps_missing: number;
  guest_menu_interactive_slow4g_ms: number;
}

/**
 * N grill screens (one paired device, N tabs) in a real headless Chromium while orders arrive
 * over the widget API at a steady rate: for every order and screen, the API's 201 to the ticket
 * painted (a MutationObserver, then the next animation frame). Then the guest menu (/qr/<token>)
 * on Lighthouse's "slow 4G" mobile profile (150 ms RTT, 1.6 Mbit/s, CPU × 4): until its first
 * item can be tapped. `api` holds a secret key of the restaurant, `widget` its widget key.
 * With `taps`, a server on the service page (a tablet window of its own) rings in that many
 * checks, one per table, while the load runs (it runs on until the last tap is in, at most 3 × `seconds`).
 */
export async function measureScreens(url: string, api: ApiClient, widget: string, opts: { seconds: number; rate: number; screens: number; taps?: number }): Promise<ScreensResult> {
  const { seconds, rate, screens, taps = 0 } = opts;
  const till = api.withKey(widget);
  await api.post('/v1/stations', { key: 'kds-bench', name: 'KDS bench' });
  const cat = (await api.post('/v1/menu_categories', { name: 'KDS bench', station: 'kds-bench' })).body;
  const item = (await api.post('/v1/menu_items', { name: 'Steak', category: cat.id, price: 2450 })).body;
  const qr = (await api.post('/v1/qr_codes', {})).body;
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addInitScript(SOUND_OFF);
    const code = (await api.post('/v1/devices/pairing_codes', { name: 'Bench grill', station: 'kds-bench' })).body.code;
    // the server's tablet first, in a window of its own
    const tables = taps ? await benchTables(api, taps) : [];
    // a browser of its own, as the tablet is a device of its own
    const tabletBrowser = taps ? await launchChromium() : null;
    const tablet = tabletBrowser ? await (await serverTablet(tabletBrowser, url, api, 'taps')).newPage() : null;
    const first = await context.newPage();
    await first.goto(`${url}/screens/pair?code=${code}`);
    await first.getByRole('button', { name: 'Pair' }).click();
    await first.getByText('No open tickets').waitFor();
    const pages = [first];
    // each screen a window of its own, as each tablet shows its screen in front: pages that
    // share a window are background tabs, whose frames Chromium holds back for up to a second
    const paired = await context.storageState();
    const windows = [context];
    for (let i = 1; i < screens; i++) {
      const own = await browser.newContext({ viewport: { width: 1280, height: 800 }, storageState: paired });
      await own.addInitScript(SOUND_OFF);
      windows.push(own);
      const p = await own.newPage();
      await p.goto(`${url}/screens/kitchen/kds-bench`);
      await p.getByText('No open tickets').waitFor();
      pages.push(p);
    }
    // in each page: when a ticket appears, note the wall clock at the next frame
    for (const p of pages) {
      await p.evaluate(() => {
        const w = globalThis as any;
        w.__seen = {};
        new w.MutationObserver((records: any[]) => {
          for (const r of records)
            for (const n of r.addedNodes) {
              const id = n.getAttribute?.('data-order');
              if (id && !w.__seen[id]) w.requestAnimationFrame(() => (w.__seen[id] = Date.now()));
            }
        }).observe(w.document.querySelector('.kds-tickets'), { childList: true });
      });
    }
    const tapping = tablet ? tapOrders(tablet, url, api, tables, /^Steak/) : Promise.resolve(new Map<string, number>());
    let tapped = false;
    void tapping.finally(() => (tapped = true)).catch(() => {});
    const sent = new Map<string, number>();
    const started = Date.now();
    // on past `seconds` while taps remain, up to three times as long: the screens should not pile
    // up hundreds of tickets more than the scenario without taps shows
    for (let i = 0; i < seconds * rate || (!tapped && i < 3 * seconds * rate); i++) {
      const due = started + (i * 1000) / rate;
      await new Promise((r) => setTimeout(r, Math.max(0, due - Date.now())));
      void till.post('/public/orders', { type: 'takeout', customerName: `Guest ${i}`, items: [{ menuItemId: item.id, quantity: 1 }] }).then((r) => sent.set(r.body.id, Date.now()));
    }
    const byTap = await tapping;
    await new Promise((r) => setTimeout(r, 3000));
    const lat: number[] = [];
    const tapLat: number[] = [];
    let missing = 0;
    let tapsMissing = 0;
    for (const p of pages) {
      const seen: Record<string, number> = await p.evaluate(() => (globalThis as any).__seen);
      for (const [id, at] of sent) {
        if (seen[id] === undefined) missing++;
        else lat.push(seen[id] - at);
      }
      for (const [id, at] of byTap) {
        if (seen[id] === undefined) tapsMissing++;
        else tapLat.push(seen[id] - at);
      }
    }
    const stats = (xs: number[]) => {
      xs.sort((a, b) => a - b);
      const q = (x: number) => xs[Math.min(xs.length - 1, Math.floor(xs.length * x))]!;
      return { p50: q(0.5), p95: q(0.95), max: xs[xs.length - 1]! };
    };
    for (const w of windows) await w.close();
    await tabletBrowser?.close();
  
    // the guest's menu on a throttled phone: Lighthouse's "slow 4G" mobile profile (150 ms RTT, 1.6 Mbit/s, CPU × 4)
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
    const guest = await phone.newPage();
    const cdp = await phone.newCDPSession(guest);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    const t0 = Date.now();
    await guest.goto(`${url}/qr/${qr.token}`);
    await guest.getByRole('button', { name: /Steak/ }).first().waitFor();
    const interactive = Date.now() - t0;
    await phone.close();
  
    return {
        screens,
        orders: sent.size,
        per_second: rate,
        paints: lat.length,
        missing,
        order_to_paint_ms: stats(lat),
        taps: byTap.size,
        tap_to_paint_ms: tapLat.length ? stats(tapLat) : null,
        taps_missing: tapsMissing,
        guest_menu_interactive_slow4g_ms: interactive,
    };
  } finally {
    await browser.close();
  }
}
