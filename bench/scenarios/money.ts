import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BenchScenario } from '../scenario.ts';

/**
 * The money property test's long run (issue 39: at least 10,000 sequences in the bench, a
 * fixed-seed few hundred in CI). It runs the test file itself, in vitest on SQLite, so the bench
 * checks exactly what CI checks; the test writes its own run time (MONEY_REPORT), so vitest's
 * start and the build check stay out of the rate. BENCH_MONEY_RUNS=n for a shorter run,
 * MONEY_SEED=n for another seed.
 */
const RUNS = Number(process.env.BENCH_MONEY_RUNS ?? 10_000);

function vitest(env: NodeJS.ProcessEnv): Promise<{ code: number | null; tail: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', 'test/payments/money-property.test.ts'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const keep = (b: Buffer) => {
      out = (out + b.toString()).slice(-4_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('close', (code) => resolve({ code, tail: out }));
  });
}

export const scenarios: BenchScenario[] = [
  {
    name: `money property: ${RUNS.toLocaleString('en')} random sequences of service, every check, receipt and day close tied out (SQLite)`,
    target: 'every sequence ties out (issue 39); runs/s reported, no target',
    custom: async () => {
      const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-money-')), 'report.json');
      const { code, tail } = await vitest({ MONEY_RUNS: String(RUNS), TEST_DIALECTS: 'sqlite', MONEY_REPORT: report });
      if (code !== 0 || !fs.existsSync(report)) return [`FAIL: vitest exited ${code}`, ...tail.split('\n').slice(-30)];
      const r = JSON.parse(fs.readFileSync(report, 'utf8')) as { runs: number; seconds: number; days: number; checks: number };
      return [`${r.runs} sequences in ${r.seconds.toFixed(1)} s: ${(r.runs / r.seconds).toFixed(1)} runs/s (${r.checks} checks over ${r.days} business days, seed ${process.env.MONEY_SEED ?? 39})`];
    },
  },
];
