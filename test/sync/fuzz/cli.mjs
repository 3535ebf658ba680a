// `npm run fuzz -- --runs N [--ops M] [--seed S] [--verbose]`: the sync fuzzer's test
// (test/sync/sync-fuzz.test.ts) with more runs; each failing run prints its seed to replay.
import { spawnSync } from 'node:child_process';

const args = process.argv.slice(2);
const value = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
};
const env = {
  ...process.env,
  FUZZ_RUNS: value('runs', '10'),
  FUZZ_OPS: value('ops', '100'),
  FUZZ_SEED: value('seed', String(Date.now() % 1_000_000)),
  ...(args.includes('--verbose') ? { FUZZ_VERBOSE: '1' } : {}),
};
console.log(`sync fuzz: ${env.FUZZ_RUNS} run(s) of ${env.FUZZ_OPS} operations from seed ${env.FUZZ_SEED}`);
const r = spawnSync('npx', ['vitest', 'run', 'test/sync/sync-fuzz.test.ts'], { stdio: 'inherit', env });
process.exit(r.status ?? 1);
