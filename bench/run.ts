// npm run bench [-- name-filter]: every scenario of bench/scenarios against the real server
// on SQLite, next to a bare Koa baseline measured in the same run. Prints ratios.
import os from 'node:os';
import { startBaseline } from './baseline.ts';
import { DURATION, load } from './load.ts';
import { profiled } from './profile.ts';
import { allScenarios } from './scenarios/index.ts';
import { openBenchVenue } from './venue.ts';

const filter = process.argv.slice(2).join(' ').toLowerCase();
// BENCH_SKIP=analytics,realtime leaves out scenarios whose name contains one of these
const skip = (process.env.BENCH_SKIP ?? '').toLowerCase().split(',').filter(Boolean);

async function main() {
  const venue = await openBenchVenue();
  const { ctx } = venue;
  const { url } = ctx;

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
        // BENCH_PROFILE=DIR: a CPU profile of the server's thread while the real load runs
        const stop = s.observe?.(ctx);
        const real = await profiled(process.env.BENCH_PROFILE, s.name, () => load(url, l));
        const observed = stop?.() ?? [];
        const ratio = real.rps / baseline.rps;
        const ok = (s.minRatio === undefined || ratio >= s.minRatio) && (s.maxP99Ms === undefined || real.p99 <= s.maxP99Ms) && (s.maxP50Ms === undefined || real.p50 <= s.maxP50Ms) && real.non2xx === 0 && real.errors === 0;
        if (!ok) failed++;
        console.log(
          `  baseline ${baseline.rps.toFixed(0)} req/s, p50 ${baseline.p50} ms, p99 ${baseline.p99} ms (body ${text.length} B) | comanda ${real.rps.toFixed(0)} req/s, p50 ${real.p50} ms, p99 ${real.p99} ms, non-2xx ${real.non2xx}, errors ${real.errors}`,
        );
        for (const line of observed) console.log(`  ${line}`);
        console.log(`  ratio ${(ratio * 100).toFixed(1)} % of baseline → ${ok ? 'MEETS target' : 'MISSES target'}`);
      }
    } catch (err) {
      failed++;
      console.log(`  failed: ${(err as Error).stack ?? err}`);
    }
    console.log('');
  }
  await venue.close();
  console.log(failed ? `${failed} scenario(s) missed their target` : 'all scenarios met their targets');
}

await main();
