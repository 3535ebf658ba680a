import { launchChromium, measureScreens } from '../screens-measure.ts';
import path from 'node:path';
import { openDatabase } from '../../server/db/database.ts';
import { silentLogger } from '../../server/logger.ts';
import { createServer } from '../../server/server.ts';
import { measureGrid, serviceInteractive, serviceInteractiveInTurns } from '../service-measure.ts';
import type { BenchScenario } from '../scenario.ts';
import type { ApiClient } from '../../test/helpers/server.ts';

/**
 * Mid-service: `n` of the demo venue's tables with an open check, so the floor's first draw
 * shows totals and ages as on a real shift (its first amount is the page's first number format).
 */
async function openChecks(api: ApiClient, n: number) {
  // tables with no open check yet (another scenario, or a run before, may have left some)
  const open = new Set(((await api.get('/v1/orders?limit=100&status=placed,preparing,ready,served')).body.data as { table: string | null }[]).map((o) => o.table));
  open.delete(null);
  const tables = ((await api.get('/v1/tables?limit=100')).body.data as { id: string }[]).filter((tb) => !open.has(tb.id));
  const item = (await api.get('/v1/menu_items?limit=1')).body.data[0].id as string;
  for (const tb of tables.slice(0, Math.max(0, n - open.size))) {
    const o = await api.post('/v1/orders', { type: 'dine_in', table: tb.id, items: [{ menu_item: item, quantity: 2 }] });
    if (o.status !== 201 || (await api.patch(`/v1/orders/${o.body.id}`, { status: 'placed' })).status !== 200) throw new Error(`open check: ${o.status} ${JSON.stringify(o.body)}`);
  }
}

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
        await openChecks(ctx.api, 6);
        const lines: string[] = [];
        const part = process.env.BENCH_SERVICE_PART;
        const loads = Number(process.env.BENCH_SERVICE_LOADS ?? 5);
        const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
        let median = NaN;
        const url = other ? (await other.listen(0, '127.0.0.1')).url : null;
        if (part !== 'grid' && url) {
          const r = await serviceInteractiveInTurns(browser, { before: url, after: ctx.url }, ctx.api, loads);
          median = med(r.after.runs);
          for (const [name, x] of [['before', r.before], ['after', r.after]] as const)
            lines.push(`${name} (${name === 'before' ? before : 'this build'}), ${x.runs.length} cold loads in turns: wall clock ${x.runs.join(', ')} ms (median ${med(x.runs)}); in the page, floor painted ${x.painted.join(', ')} ms (median ${med(x.painted)}); ${x.js_kb} KB of JavaScript`);
          lines.push(`after / before: wall clock ${(med(r.after.runs) / med(r.before.runs)).toFixed(2)}×, floor painted ${(med(r.after.painted) / med(r.before.painted)).toFixed(2)}×`);
        } else if (part !== 'grid') {
          const tti = await serviceInteractive(browser, ctx.url, ctx.api, loads);
          median = med(tti.runs);
          lines.push(`service page interactive (floor plan tappable), ${loads} cold loads: ${tti.runs.join(', ')} ms; in the page, floor painted ${tti.painted.join(', ')} ms; ${tti.js_kb} KB of JavaScript fetched (compressed)`);
        }
        let p95 = NaN;
        if (part !== 'loads') {
          // with a build to compare, its grid and this one's in turns
          const rounds = Number(process.env.BENCH_GRID_ROUNDS ?? (url ? 2 : 1));
          const gs = await measureGrid(browser, url ? [url, ctx.url] : [ctx.url], ctx.services, rounds);
          gs.forEach((g, i) => {
            const who = gs.length > 1 ? `${i ? 'after' : 'before'}, ` : '';
            lines.push(`${who}${g.items} items: table tapped → grid painted ${g.open_ms} ms (menu fetched included); a category → All painted ${g.all_ms} ms (median)`);
            lines.push(`${who}search as you type, ${g.keystrokes} keystrokes: p50 ${g.keystroke_ms.p50} ms, p95 ${g.keystroke_ms.p95} ms, max ${g.keystroke_ms.max} ms`);
          });
          const [b, a] = [gs[0]!, gs[gs.length - 1]!];
          if (gs.length > 1) lines.push(`after / before: keystroke p50 ${(a.keystroke_ms.p50 / b.keystroke_ms.p50).toFixed(2)}×, p95 ${(a.keystroke_ms.p95 / b.keystroke_ms.p95).toFixed(2)}×; All ${(a.all_ms / b.all_ms).toFixed(2)}×`);
          p95 = a.keystroke_ms.p95;
        }
        const ok = !(median >= 1000) && !(p95 >= 50);
        return [...lines, ok ? 'MEETS target' : 'MISSES target'];
      } finally {
        await other?.close();
        await browser.close();
      }
    },
  },
];
