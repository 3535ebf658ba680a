// npm run bench [-- name-filter]: every scenario of bench/scenarios against the real server
// on SQLite, next to a bare Koa baseline measured in the same run. Prints ratios.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Session } from 'node:inspector/promises';
import { openDatabase } from '../server/db/database.ts';
import { seedDemo } from '../server/demo/seed.ts';
import { provisionRestaurant } from '../server/domain/restaurants/provision.ts';
import { silentLogger } from '../server/logger.ts';
import { createServer } from '../server/server.ts';
import { ApiClient } from '../test/helpers/server.ts';
import { startBaseline } from './baseline.ts';
import { DURATION, load } from './load.ts';
import type { BenchContext } from './scenario.ts';
import { allScenarios } from './scenarios/index.ts';

const filter = process.argv.slice(2).join(' ').toLowerCase();
// BENCH_SKIP=analytics,realtime leaves out scenarios whose name contains one of these
const skip = (process.env.BENCH_SKIP ?? '').toLowerCase().split(',').filter(Boolean);

/**
 * BENCH_PROFILE=DIR writes a CPU profile of the server's thread while the real load runs
 * (the baseline and the seeding stay out of it); open it in Chrome's DevTools.
 */
async function profiled<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const dir = process.env.BENCH_PROFILE;
  if (!dir) return fn();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await fn();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${name.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '')}.cpuprofile`);
    fs.writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
    console.log(`  profile: ${file}`);
  }
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-bench-'));
  const database = await openDatabase({ dataDir: dir });
  // every bench screen connects from 127.0.0.1: the per-address socket cap (100) would refuse them
  const server = createServer({ database, logger: silentLogger, config: { rateLimit: false, guestRateLimit: false, realtime: { maxSocketsPerAddress: 1_000 } } });
  const { url } = await server.listen(0, '127.0.0.1');
  const now = Date.now();
  const r = await provisionRestaurant(server.services.tx, now, { name: 'Bench Bistro', slug: 'bench', ownerPassword: true });
  await seedDemo(server.services.tx, { restaurantId: r.restaurant.id, livemode: true, now }, { historyDays: 0, ordersPerDay: 0 }, server.services.registry.hooks);
  const api = new ApiClient(url, r.keys.secret);
  const ctx: BenchContext = {
    url,
    keys: r.keys,
    restaurantId: r.restaurant.id,
    services: server.services,
    api,
    databaseFile: path.join(dir, 'comanda.sqlite'),
    async baselineRps(bytes: number, connections = 32) {
      const base = await startBaseline({ data: 'x'.repeat(Math.max(0, bytes - 11)) });
      try {
        return (await load(base.url, { path: '/', connections })).rps;
      } finally {
        await base.close();
      }
    },
  };

  console.log(`comanda bench — ${os.cpus().length} cores, ${DURATION}s per run, Node ${process.version}\n`);
  let failed = 0;
  for (const s of allScenarios) {
    if (filter && !s.name.toLowerCase().includes(filter)) continue;
    if (skip.some((word) => s.name.toLowerCase().includes(word))) continue;
    console.log(`■ ${s.name}\n  target: ${s.target}`);
    try {
      if (s.custom) {
        const lines = await s.custom(ctx);
        for (const line of lines) console.log(`  ${line}`);
        // a custom scenario states its own verdict; a miss counts in the summary like any other
        if (lines.some((line) => /\bMISSES target\b|\bFAIL\b/.test(line))) failed++;
      }
      if (s.http) {
        const l = await s.http(ctx);
        // The baseline answers a body like the real one: same JSON, same size.
        const sample = await fetch(url + (l.requests?.[0]?.path ?? l.path), {
          method: l.requests?.[0]?.method ?? l.method ?? 'GET',
          headers: { 'content-type': 'application/json', ...l.headers, ...l.requests?.[0]?.headers },
          body: l.requests?.[0]?.body ?? l.body,
        });
        const text = await sample.text();
        if (sample.status >= 400) throw new Error(`sample request answered ${sample.status}: ${text.slice(0, 200)}`);
        const base = await startBaseline(JSON.parse(text));
        const baseline = await load(base.url, { path: '/', connections: l.connections });
        await base.close();
        const real = await profiled(s.name, () => load(url, l));
        const ratio = real.rps / baseline.rps;
        const ok = (s.minRatio === undefined || ratio >= s.minRatio) && (s.maxP99Ms === undefined || real.p99 <= s.maxP99Ms) && (s.maxP50Ms === undefined || real.p50 <= s.maxP50Ms) && real.non2xx === 0 && real.errors === 0;
        if (!ok) failed++;
        console.log(
          `  baseline ${baseline.rps.toFixed(0)} req/s, p50 ${baseline.p50} ms, p99 ${baseline.p99} ms (body ${text.length} B) | comanda ${real.rps.toFixed(0)} req/s, p50 ${real.p50} ms, p99 ${real.p99} ms, non-2xx ${real.non2xx}, errors ${real.errors}`,
        );
        console.log(`  ratio ${(ratio * 100).toFixed(1)} % of baseline → ${ok ? 'MEETS target' : 'MISSES target'}`);
      }
    } catch (err) {
      failed++;
      console.log(`  failed: ${(err as Error).stack ?? err}`);
    }
    console.log('');
  }
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
  console.log(failed ? `${failed} scenario(s) missed their target` : 'all scenarios met their targets');
}

await main();
