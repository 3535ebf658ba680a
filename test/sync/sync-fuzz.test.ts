import { describe, it } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import { fuzzRun } from './fuzz/harness.ts';

/**
 * The sync fuzzer (test/sync/fuzz/harness.ts): random service on a hub and a cloud (separate
 * processes, the cloud on PostgreSQL) with the line cut and either process killed at random,
 * then convergence and the money invariants. In the suite: one short run with a fixed seed.
 * `npm run fuzz -- --runs N [--ops M] [--seed S]` runs more (FUZZ_RUNS, FUZZ_OPS, FUZZ_SEED).
 */
const runs = Number(process.env.FUZZ_RUNS ?? 1);
const ops = Number(process.env.FUZZ_OPS ?? 30);
const first = Number(process.env.FUZZ_SEED ?? 4501);

for (const dialect of DIALECTS.filter((d) => d === 'postgres')) {
  describe(`sync fuzz (cloud on ${dialect})`, () => {
    // 240 s a run and 5 s an operation: two processes started, kills, then up to 120 s to converge on a loaded box
    it(`${runs} run(s) of ${ops} operations from seed ${first}`, { timeout: runs * (240_000 + ops * 5_000) }, async () => {
      const started = Date.now();
      let passed = 0;
      for (let i = 0; i < runs; i++) {
        const seed = first + i * 7919;
        await fuzzRun(seed, ops, process.env.FUZZ_VERBOSE ? (l) => console.log(l) : undefined);
        passed++;
        if (runs > 1) console.log(`sync fuzz: seed ${seed} passed (${passed}/${runs}, ${((Date.now() - started) / 1000).toFixed(0)} s)`);
      }
    });
  });
}
