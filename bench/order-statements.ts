// node --import tsx bench/order-statements.ts [orders, default 1000]: every SQLite statement that
// POST /v1/orders runs, with the calls and time per order each took over that many orders sent
// 32 at a time (CPU time of the server's process inside the driver): what an order's rows cost,
// statement by statement, and how much of an order is spent outside the driver.
import SQLite from 'better-sqlite3';
import { benchOrderBody } from './scenarios/orders.ts';
import { openBenchVenue } from './venue.ts';

const N = Number(process.argv[2] ?? 1000);
const venue = await openBenchVenue();
try {
  const { ctx } = venue;
  const body = await benchOrderBody(ctx);
  const send = async (n: number) => {
    let left = n;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (left-- > 0) if ((await ctx.api.post('/v1/orders', JSON.parse(body))).status !== 201) throw new Error('order refused');
      }),
    );
  };
  await send(300);
  const probe = new SQLite(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, (...a: unknown[]) => unknown>;
  probe.close();
  const kinds = ['run', 'all', 'get', 'iterate'] as const;
  const original = Object.fromEntries(kinds.map((k) => [k, proto[k]]));
  const seen = new Map<string, { calls: number; us: number }>();
  for (const kind of kinds)
    proto[kind] = function (this: SQLite.Statement, ...args: unknown[]) {
      // CPU time, not wall time: on a busy box a statement's wall time is mostly waiting for a core
      const t = process.cpuUsage();
      try {
        return original[kind].apply(this, args);
      } finally {
        const key = this.source.replace(/\s+/g, ' ').slice(0, 150);
        const s = seen.get(key) ?? { calls: 0, us: 0 };
        const used = process.cpuUsage(t);
        s.calls++;
        s.us += used.user + used.system;
        seen.set(key, s);
      }
    };
  const cpu0 = process.cpuUsage();
  try {
    await send(N);
  } finally {
    for (const kind of kinds) proto[kind] = original[kind];
  }
  const cpu = process.cpuUsage(cpu0);
  let total = 0;
  for (const [sqlText, s] of [...seen].sort((a, b) => b[1].us - a[1].us)) {
    const us = s.us / N;
    total += us;
    console.log(`${us.toFixed(1).padStart(7)} µs ${(s.calls / N).toFixed(2).padStart(6)}×  ${sqlText}`);
  }
  console.log(`statements ${total.toFixed(0)} µs per order; the process (this client included) ${((cpu.user + cpu.system) / N).toFixed(0)} µs CPU per order`);
} finally {
  await venue.close();
}
