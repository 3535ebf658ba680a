import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { actorFor, addStation, placeOrder, setItemStatus } from '../../test/realtime/fixtures.ts';
import type { BenchContext, BenchScenario } from '../scenario.ts';

const SCREENS = 200;
const ORDERS_PER_SECOND = 50;
const PROBES_PER_SECOND = 20;
const MEASURE_MS = 8_000;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/**
 * 200 station screens follow `station:grill`. While orders are written at 50/s (each with a
 * kitchen line, every other one with a grill line too), a probe moves one grill line every
 * 50 ms; its latency is from the start of the write to the moment each screen has parsed the
 * message showing the new status. The screens run on a worker thread (they are other devices).
 */
async function stationScreens(ctx: BenchContext): Promise<string[]> {
  const { services } = ctx;
  const actor = () => actorFor(services, ctx.restaurantId);
  const grill = await services.db.selectFrom('stations').select('id').where('restaurant_id', '=', ctx.restaurantId).where('key', '=', 'grill').executeTakeFirst();
  if (!grill) await addStation(services, actor(), 'grill');
  const targets = [];
  for (let i = 0; i < 40; i++) targets.push((await placeOrder(services, actor(), { lines: [{ station: 'grill' }, { station: 'kitchen' }] })).order.id);

  // Node 20 workers do not inherit the TypeScript loader: register it, then load the screens.
  const boot = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((m) => { m.register(); return import(${JSON.stringify(new URL('./realtime-screens.ts', import.meta.url).href)}); })`;
  const screens = new Worker(boot, {
    eval: true,
    workerData: { url: ctx.url, key: ctx.keys.widget, screens: SCREENS, topic: 'station:grill' },
  });
  await new Promise<void>((resolve, reject) => {
    screens.once('message', () => resolve());
    screens.once('error', reject);
  });

  let written = 0;
  let writing = true;
  const writer = (async () => {
    const start = performance.now();
    while (writing) {
      const lines = written % 2 === 0 ? [{ station: 'kitchen' }, { station: 'grill' }] : [{ station: 'kitchen' }];
      await placeOrder(services, actor(), { lines });
      written++;
      const due = start + (written * 1000) / ORDERS_PER_SECOND;
      const wait = due - performance.now();
      await new Promise((r) => (wait > 0 ? setTimeout(r, wait) : setImmediate(r)));
    }
    return performance.now() - start;
  })();

  const probes: { orderId: string; status: string; t0: number }[] = [];
  let probesSent = 0;
  const started = performance.now();
  const cpu0 = process.cpuUsage();
  const elu0 = performance.eventLoopUtilization();
  while (performance.now() - started < MEASURE_MS) {
    const orderId = targets[probesSent % targets.length];
    const status = Math.floor(probesSent / targets.length) % 2 === 0 ? 'preparing' : 'pending';
    probes.push({ orderId, status, t0: performance.timeOrigin + performance.now() });
    await setItemStatus(services, actor(), orderId, 0, status);
    probesSent++;
    await new Promise((r) => setTimeout(r, 1000 / PROBES_PER_SECOND));
  }
  writing = false;
  const writeMs = await writer;
  const cpu = process.cpuUsage(cpu0);
  const elu = performance.eventLoopUtilization(elu0);
  const wallMs = performance.now() - started;
  // the last probes' messages
  await new Promise((r) => setTimeout(r, 1000));
  const { latencies, cutOff } = await new Promise<{ latencies: number[]; cutOff: number }>((resolve) => {
    screens.once('message', resolve);
    screens.postMessage({ probes });
  });
  await screens.terminate();

  const sorted = [...latencies].sort((a, b) => a - b);
  const expected = probesSent * SCREENS;
  const p99 = percentile(sorted, 99);
  return [
    `${SCREENS} screens on station:grill, ${((written * 1000) / writeMs).toFixed(1)} orders/s written, ${probesSent} item status changes`,
    `server thread busy ${(elu.utilization * 100).toFixed(0)}% of wall time; process CPU ${(((cpu.user + cpu.system) / 1000 / wallMs) * 100).toFixed(0)}% (both threads)`,
    `deliveries ${sorted.length}/${expected}${cutOff ? `, ${cutOff} screens cut off as too slow` : ''}`,
    `latency p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms`,
    `${p99 < 50 && sorted.length === expected ? 'PASS' : 'FAIL'}: p99 < 50 ms and every screen reached`,
  ];
}

export const scenarios: BenchScenario[] = [
  {
    name: 'realtime: item status change to 200 station screens while writing 50 orders/s',
    target: 'p99 < 50 ms from commit start to every subscribed screen',
    maxP99Ms: 50,
    custom: stationScreens,
  },
];
