import type { BenchScenario } from '../scenario.ts';
import { buildAnalyticsData } from '../analytics-data.ts';
import { measureReports } from '../analytics-measure.ts';

// The full data set (730 × 1400 ≈ 1,000,000 orders, ~3,000,000 lines) takes minutes to
// build; ANALYTICS_BENCH_DAYS / ANALYTICS_BENCH_ORDERS_PER_DAY shrink it for a quick run.
const DAYS = Number(process.env.ANALYTICS_BENCH_DAYS ?? 730);
const PER_DAY = Number(process.env.ANALYTICS_BENCH_ORDERS_PER_DAY ?? 1400);

export const scenarios: BenchScenario[] = [
  {
    name: `analytics reports, 90-day ranges over ${DAYS} days × ${PER_DAY} orders, with orders being written`,
    target: 'every report p50 < 100 ms, dashboard p50 < 20 ms (SQLite)',
    maxP50Ms: 100,
    custom: async (ctx) => {
      const built = await buildAnalyticsData(ctx.services.db, ctx.services.tx, {
        restaurantId: ctx.restaurantId,
        days: DAYS,
        ordersPerDay: PER_DAY,
        endMs: ctx.services.clock.now(),
      });
      const { lines } = await measureReports({ url: ctx.url, key: ctx.keys.secret, services: ctx.services, restaurantId: ctx.restaurantId });
      return [`data set: ${built.orders} orders, ${built.lines} lines, built in ${(built.ms / 1000).toFixed(0)} s`, ...lines];
    },
  },
];
