// node --import tsx bench/order-cpu.ts [orders per phase, default 2000] [rounds, default 3]
//
// CPU time per order of POST /v1/orders (3 lines with modifiers), split by phase. Throughput
// on this shared box swings with the load of others; the CPU an order costs the server's
// process hardly does, so this is the figure to compare builds by (run both in turns).
// The requests come from another process (bench/fire.ts), so the server's process counts
// only its own work: its main thread (read from /proc) and all of it (GC and pool threads too).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { promisify } from 'node:util';
import { CreateOrder } from '../server/api/orders/schema.ts';
import { orderContext } from '../server/api/orders/context.ts';
import { createOrder } from '../server/domain/orders/create-order.ts';
import { startBaseline } from './baseline.ts';
import { profiled } from './profile.ts';
import { recordOneOrder, replayRows } from './order-floor.ts';
import { benchOrderBody } from './scenarios/orders.ts';
import type { BenchContext } from './scenario.ts';
import { openBenchVenue } from './venue.ts';

const N = Number(process.argv[2] ?? 2000);
const ROUNDS = Number(process.argv[3] ?? 3);
const CONNECTIONS = 32;
const run = promisify(execFile);

/** CPU µs of this process so far, all threads and the main thread alone (Linux; NaN elsewhere). */
function cpuNow(): { all: number; main: number } {
  const u = process.cpuUsage();
  let main = NaN;
  try {
    main = Number(fs.readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1000;
  } catch {
    // not Linux: the main thread's share is left out
  }
  return { all: u.user + u.system, main };
}

async function perOrder(n: number, fn: () => Promise<void>): Promise<{ all: number; main: number }> {
  const before = cpuNow();
  await fn();
  const after = cpuNow();
  return { all: (after.all - before.all) / n, main: (after.main - before.main) / n };
}

/** `n` requests from the other process; throws unless every answer has the expected kind. */
async function fire(ctx: BenchContext, body: string, n: number, expectOk: boolean, url = ctx.url + '/v1/orders'): Promise<void> {
  const load = { url, method: 'POST', headers: { 'x-api-key': ctx.keys.secret, 'content-type': 'application/json' }, body, amount: n, connections: CONNECTIONS };
  const { stdout } = await run(process.execPath, ['--import', 'tsx', new URL('./fire.ts', import.meta.url).pathname, JSON.stringify(load)], { maxBuffer: 1 << 20 });
  const r = JSON.parse(stdout.trim().split('\n').pop()!) as { total: number; non2xx: number; errors: number };
  // a busy box may time a few requests out (counted, not failed); a wrong answer fails
  if (r.errors > n / 20 || (expectOk ? r.non2xx : r.total - r.non2xx)) throw new Error(`order-cpu: unexpected answers ${stdout}`);
}

/** `n` orders through the domain command alone (no HTTP, no middleware), 32 units in flight. */
async function domainOrders(ctx: BenchContext, body: string, n: number): Promise<void> {
  const input = CreateOrder.parse(JSON.parse(body));
  const services = ctx.services;
  const octx = orderContext(services);
  let left = n;
  const worker = async () => {
    while (left-- > 0) {
      const actor = { restaurantId: ctx.restaurantId, livemode: true, now: services.clock.now() };
      await services.tx.run((trx) => createOrder(trx, actor, octx, { ...input, server: null, sender: null, source: 'api', status: 'draft' }));
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const venue = await openBenchVenue();
  try {
    const { ctx } = venue;
    const body = await benchOrderBody(ctx);
    const refused = JSON.parse(body);
    refused.items[0].quantity = 0;
    const refusedBody = JSON.stringify(refused);
    // warm the JIT, caches and prepared statements on every path measured
    await fire(ctx, body, 500, true);
    await fire(ctx, refusedBody, 500, false);
    await domainOrders(ctx, body, 500);
    const statements = await recordOneOrder(() => ctx.api.post('/v1/orders', JSON.parse(body)));

    // the yardstick: bare Koa answering this very order's JSON, in this process
    const base = await startBaseline((await ctx.api.post('/v1/orders', JSON.parse(body))).body);
    const baseUrl = base.url + '/';
    await fire(ctx, body, 500, true, baseUrl);
    const phases: Record<string, { all: number; main: number }[]> = { baseline: [], route: [], http: [], domain: [], rows: [] };
    for (let r = 0; r < ROUNDS; r++) {
      // ORDER_CPU_PROFILE=DIR: CPU profiles of the last round's phases, their top self times printed
      const dir = r === ROUNDS - 1 ? process.env.ORDER_CPU_PROFILE : undefined;
      const measured = (name: string, fn: () => Promise<void>) => profiled(dir, `order-cpu-${name}`, () => perOrder(N, fn), 40);
      phases.baseline.push(await perOrder(N, () => fire(ctx, body, N, true, baseUrl)));
      phases.route.push(await measured('route', () => fire(ctx, refusedBody, N, false)));
      phases.http.push(await measured('http', () => fire(ctx, body, N, true)));
      phases.domain.push(await measured('domain', () => domainOrders(ctx, body, N)));
      const rows = replayRows(ctx.databaseFile, statements, N);
      phases.rows.push({ all: rows.cpu, main: NaN });
    }
    await base.close();
    const m = Object.fromEntries(Object.entries(phases).map(([k, v]) => [k, { all: median(v.map((x) => x.all)), main: median(v.map((x) => x.main)) }]));
    const f = (x: number) => (Number.isNaN(x) ? '—' : x.toFixed(0).padStart(5));
    console.log(`CPU µs per order, POST /v1/orders (3 lines with modifiers), median of ${ROUNDS} rounds of ${N}; load ${os.loadavg()[0].toFixed(1)}, ${new Date().toISOString()}`);
    console.log(`                                              process  main thread`);
    console.log(`  the whole order over HTTP                     ${f(m.http.all)}  ${f(m.http.main)}`);
    console.log(`  the route alone (refused by validation)       ${f(m.route.all)}  ${f(m.route.main)}`);
    console.log(`  bare Koa answering the same JSON              ${f(m.baseline.all)}  ${f(m.baseline.main)}`);
    console.log(`  the domain command alone (group commit)       ${f(m.domain.all)}  ${f(m.domain.main)}`);
    console.log(`  the rows alone (${statements.length} statements replayed)       ${f(m.rows.all)}`);
    console.log(`  → HTTP, middleware, idempotency, answer (whole − domain)   ${f(m.http.all - m.domain.all)}`);
    console.log(`  → domain code above its rows (domain − rows)               ${f(m.domain.all - m.rows.all)}`);
    console.log(`  → the route's middleware above bare Koa (route − Koa)      ${f(m.route.all - m.baseline.all)}`);
    console.log(`  rounds (process µs): Koa ${phases.baseline.map((x) => x.all.toFixed(0)).join(' ')} | http ${phases.http.map((x) => x.all.toFixed(0)).join(' ')} | route ${phases.route.map((x) => x.all.toFixed(0)).join(' ')} | domain ${phases.domain.map((x) => x.all.toFixed(0)).join(' ')} | rows ${phases.rows.map((x) => x.all.toFixed(0)).join(' ')}`);
  } finally {
    await venue.close();
  }
}

await main();
