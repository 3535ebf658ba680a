import { measureScreens } from '../screens-measure.ts';
import type { BenchScenario } from '../scenario.ts';

/** The kitchen screens and the guest menu in a real Chromium (Debian's, as the browser tests). */
export const scenarios: BenchScenario[] = [
  {
    name: 'screens: 201 → ticket painted on 20 kitchen screens at 10 orders/s; guest menu on slow 4G',
    target: 'p95 < 300 ms; guest menu interactive < 1 s',
    custom: async (ctx) => {
      const r = await measureScreens(ctx.url, ctx.api, ctx.keys.widget, { seconds: 10, rate: 10, screens: 20 });
      const ok = r.order_to_paint_ms.p95 < 300 && r.missing === 0 && r.guest_menu_interactive_slow4g_ms < 1000;
      return [
        `${r.orders} orders × ${r.screens} screens: ${r.paints} paints (${r.missing} not seen), p50 ${r.order_to_paint_ms.p50} ms, p95 ${r.order_to_paint_ms.p95} ms, max ${r.order_to_paint_ms.max} ms`,
        `guest menu interactive on slow 4G: ${r.guest_menu_interactive_slow4g_ms} ms`,
        ok ? 'MEETS target' : 'MISSES target',
      ];
    },
  },
];
