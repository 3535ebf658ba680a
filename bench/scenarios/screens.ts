import { launchChromium, measureScreens } from '../screens-measure.ts';
import path from 'node:path';
import { openDatabase } from '../../server/db/database.ts';
import { silentLogger } from '../../server/logger.ts';
import { createServer } from '../../server/server.ts';
import { measureGrid, serviceInteractive, serviceInteractiveInTurns } from '../service-measure.ts';
import type { BenchScenario } from '../scenario.ts';

/** The kitchen screens, the service page and the guest menu in a real Chromium (Debian's, as the browser tests). */
export const scenarios: BenchScenario[] = [
  {
    name: 'screens: 201 → ticket painted on 20 kitchen screens at 10 orders/s; a server\'s tap on Send on the service page; guest menu on slow 4G',
    target: 'p95 < 300 ms (API and tap); guest menu interactive < 1 s',
    custom: async (ctx) => {
      const r = await measureScreens(ctx.url, ctx.api, ctx.keys.widget, { seconds: 10, rate: 10, screens: Number(process.env.BENCH_SCREENS ?? 20), taps: 20 });
      const tap = r.tap_to_paint_ms;
      const ok = r.order_to_paint_ms.p95 < 300 && r.missing === 0 && !!tap && tap.p95 < 300 && r.taps_missing === 0 && r.guest_menu_interactive_slow4g_ms < 1000;
      return [
        `${r.orders} orders × ${r.screens} screens: ${r.paints} paints (${r.missing} not seen), p50 ${r.order_to_paint_ms.p50} ms, p95 ${r.order_to_paint_ms.p95} ms, max ${r.order_to_paint_ms.max} ms`,
        `service page: ${r.taps} taps on Send × ${r.screens} screens (${r.taps_missing} paints not seen): p50 ${tap?.p50} ms, p95 ${tap?.p95} ms, max ${tap?.max} ms`,
        `guest menu interactive on slow 4G: ${r.guest_menu_interactive_slow4g_ms} ms`,
        ok ? 'MEETS target' : 'MISSES target',
      ];
    },
  },
  {
    name: 'screens: service page interactive on a tablet (CPU × 4); a 500-item menu grid and search as you type',
    target: 'interactive < 1 s; each keystroke painted < 50 ms p95',
    custom: async (ctx) => {
      const browser = await launchChromium();
      const before = process.env.BENCH_WEB_BEFORE;
      // the build to compare with, served beside this one on the same database (a connection of its own)
      const other = before
        ? createServer({ database: await openDatabase({ dataDir: path.dirname(ctx.databaseFile) }), logger: silentLogger, config: { rateLimit: false, guestRateLimit: false }, webDist: path.resolve(before) })
        : null;
      try {
        const lines: string[] = [];
        let median: number;
        if (other) {
          const { url } = await other.listen(0, '127.0.0.1');
          const r = await serviceInteractiveInTurns(browser, { before: url, after: ctx.url }, ctx.api);
          const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
          median = med(r.after.runs);
          for (const [name, x] of [['before', r.before], ['after', r.after]] as const)
            lines.push(`${name} (${name === 'before' ? before : 'this build'}), ${x.runs.length} cold loads in turns: wall clock ${x.runs.join(', ')} ms (median ${med(x.runs)}); in the page, floor painted ${x.painted.join(', ')} ms (median ${med(x.painted)}); ${x.js_kb} KB of JavaScript`);
          lines.push(`after / before: wall clock ${(med(r.after.runs) / med(r.before.runs)).toFixed(2)}×, floor painted ${(med(r.after.painted) / med(r.before.painted)).toFixed(2)}×`);
        } else {
          const tti = await serviceInteractive(browser, ctx.url, ctx.api);
          median = [...tti.runs].sort((a, b) => a - b)[1]!;
          lines.push(`service page interactive (floor plan tappable), three cold loads: ${tti.runs.join(', ')} ms; in the page, floor painted ${tti.painted.join(', ')} ms; ${tti.js_kb} KB of JavaScript fetched (compressed)`);
        }
        const g = await measureGrid(browser, ctx.url, ctx.services);
        const ok = median < 1000 && g.keystroke_ms.p95 < 50;
        return [
          ...lines,
          `${g.items} items: table tapped → grid painted ${g.open_ms} ms (menu fetched included); a category → All painted ${g.all_ms} ms (median of 5)`,
          `search as you type, ${g.keystrokes} keystrokes: p50 ${g.keystroke_ms.p50} ms, p95 ${g.keystroke_ms.p95} ms, max ${g.keystroke_ms.max} ms`,
          ok ? 'MEETS target' : 'MISSES target',
        ];
      } finally {
        await other?.close();
        await browser.close();
      }
    },
  },
];
