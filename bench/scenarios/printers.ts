import { PrinterEmulator } from '../../printers/emulator.ts';
import { createOrder } from '../../test/printers/fixtures.ts';
import type { TestHub } from '../../test/helpers/server.ts';
import type { BenchContext, BenchScenario } from '../scenario.ts';

const STATIONS = ['kitchen', 'bar', 'dessert'] as const;

async function setup(ctx: BenchContext) {
  const emus = await Promise.all(STATIONS.map(() => PrinterEmulator.start()));
  const printers: string[] = [];
  for (const [i, station] of STATIONS.entries()) {
    const res = await ctx.api.post('/v1/printers', { name: `Bench ${station}`, transport: { type: 'tcp', host: emus[i].host, port: emus[i].port }, stations: [station] });
    printers.push(res.body.id);
  }
  // the order fixture only needs these parts of a test hub
  const hub = { server: { services: ctx.services }, clock: ctx.services.clock, restaurant: { id: ctx.restaurantId } } as unknown as TestHub;
  const order = () =>
    createOrder(hub, { lines: STATIONS.map((station, i) => ({ name: `Bench dish ${i}`, station, quantity: 1 + i })) });
  const teardown = async () => {
    for (const id of printers) await ctx.api.patch(`/v1/printers/${id}`, { is_active: false });
    for (const e of emus) await e.close();
  };
  return { emus, order, teardown };
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

export const scenarios: BenchScenario[] = [
  {
    name: 'kitchen tickets: order commit → every station printer has its ticket (3 stations, loopback emulators)',
    target: 'p50 < 50 ms, p99 < 200 ms per order; a burst of 200 orders at >= 100 tickets/s (SQLite, own target: the issue sets none)',
    custom: async (ctx) => {
      const { emus, order, teardown } = await setup(ctx);
      try {
        const latencies: number[] = [];
        for (let i = 1; i <= 100; i++) {
          const t0 = performance.now();
          await order();
          await Promise.all(emus.map((e) => e.waitForPrints(i)));
          latencies.push(performance.now() - t0);
        }
        latencies.sort((a, b) => a - b);
        const burst = 200;
        const t0 = performance.now();
        for (let i = 0; i < burst; i++) await order();
        await Promise.all(emus.map((e) => e.waitForPrints(100 + burst)));
        const seconds = (performance.now() - t0) / 1000;
        return [
          `sequential, 100 orders: p50 ${pct(latencies, 50).toFixed(1)} ms, p99 ${pct(latencies, 99).toFixed(1)} ms, max ${latencies.at(-1)!.toFixed(1)} ms`,
          `burst, ${burst} orders (${burst * STATIONS.length} tickets): ${((burst * STATIONS.length) / seconds).toFixed(0)} tickets/s`,
        ];
      } finally {
        await teardown();
      }
    },
  },
  {
    name: 'GET /v1/print_jobs?limit=100',
    target: '>= 40% of baseline rps, p99 < 20 ms at 32 connections (SQLite, own target: the issue sets none)',
    minRatio: 0.4,
    maxP99Ms: 20,
    http: async (ctx) => {
      const { emus, order, teardown } = await setup(ctx);
      for (let i = 0; i < 40; i++) await order();
      await Promise.all(emus.map((e) => e.waitForPrints(40)));
      await teardown();
      return { path: '/v1/print_jobs?limit=100', headers: { 'x-api-key': ctx.keys.secret }, connections: 32 };
    },
  },
];
