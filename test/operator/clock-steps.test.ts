import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { ServeProcess, until } from '../helpers/comanda-process.ts';

// A real `comanda serve` whose wall clock a test steps while it runs (a preload shifts Date.now
// and `new Date()`, as NTP after a dead CMOS battery, or a person, shifts the PC's clock).

const PRELOAD = path.resolve('test/helpers/clock-step-preload.mjs');
const YEAR = 365 * 86_400_000;
const dirs: string[] = [];
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-clock-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** A hub with a steppable clock; every line it writes (stdout and stderr) is kept, parsed when JSON. */
async function steppableHub() {
  const dir = tmp();
  const stepFile = path.join(dir, 'step');
  fs.writeFileSync(stepFile, '0');
  const hub = await ServeProcess.start(['--data-dir', path.join(dir, 'data')], {
    // debug: every job's start is logged, so the scheduler's runs can be counted
    env: { NODE_OPTIONS: `--import ${PRELOAD}`, COMANDA_TEST_CLOCK_STEP_FILE: stepFile, LOG_LEVEL: 'debug' },
  });
  const lines: any[] = [];
  for (const s of [hub.child.stdout!, hub.child.stderr!]) {
    readline.createInterface({ input: s }).on('line', (l) => {
      try {
        lines.push(JSON.parse(l));
      } catch {
        lines.push({ msg: l });
      }
    });
  }
  const key = hub.ready.first_run.keys.secret as string;
  return {
    hub,
    lines,
    step: (ms: number) => fs.writeFileSync(stepFile, String(ms)),
    steps: () => lines.filter((l) => /the system clock was stepped/.test(l.msg ?? '')),
    sweeps: () => lines.filter((l) => l.msg === 'job started' && l.job === 'webhooks-retry-sweep').length,
    missed: () => lines.filter((l) => /missed execution/.test(l.msg ?? '')).length,
    /** an API call with a safety deadline (never a measured time): a frozen hub fails the test instead of hanging it */
    get: async (p: string) => (await fetch(`${hub.url}${p}`, { headers: { 'x-api-key': key }, signal: AbortSignal.timeout(20_000) })).status,
  };
}

/** CPU time (user + system) the process has used, in clock ticks. */
function cpuTicks(pid: number): number {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
  return Number(f[11]) + Number(f[12]);
}

describe('a wall clock stepped under a running hub', () => {
  it('+2 minutes, then +1 year: the hub lives, answers, says each step once, runs its 5-second jobs on (once, not once per skipped slot) and does not spin', async () => {
    const h = await steppableHub();
    try {
      await until('the scheduler runs', () => h.sweeps() >= 1);

      // +2 minutes: beyond the watchdog's 60 s, which read a wall-clock step as a stall
      h.step(2 * 60_000);
      await until(() => `the step is logged: ${JSON.stringify(h.lines.slice(-5))}`, () => h.steps().length === 1);
      expect(h.steps()[0].msg).toContain('stepped forward by 2 minutes');
      expect(h.steps()[0].step_ms).toBeGreaterThanOrEqual(2 * 60_000 - 2_000);
      expect(await h.get('/v1/system/health')).toBe(200);

      // +1 year more: node-cron walked every skipped 5-second slot (six million) before anything else
      const before = h.sweeps();
      const ticks = cpuTicks(h.hub.child.pid!);
      const at = performance.now();
      h.step(2 * 60_000 + YEAR);
      await until('the +1 year step is logged', () => h.steps().length === 2);
      expect(h.steps()[1].msg).toContain('stepped forward by 1 year');
      expect(await h.get('/v1/system/health')).toBe(200);
      await until('the 5-second job runs on after the step', () => h.sweeps() >= before + 3);
      // three slots' runs at the rate of one a slot: no replay of what was skipped
      expect(h.sweeps() - before).toBeLessThanOrEqual(4);
      expect(h.missed()).toBe(0);
      // not spinning: over those slots, far less CPU than wall time (a replay held a core at 100 %)
      const usedMs = ((cpuTicks(h.hub.child.pid!) - ticks) * 1000) / 100;
      expect(usedMs).toBeLessThan((performance.now() - at) / 2);
      expect(h.hub.running).toBe(true);
      // each step said exactly once
      expect(h.steps()).toHaveLength(2);
    } finally {
      await h.hub.stop('SIGTERM');
    }
    expect(h.hub.child.exitCode).toBe(0);
  }, 120_000); // 120 s: a real hub whose clock is stepped, watched for its CPU and its log

  it('−10 minutes: requests still answer (no 429 from buckets refilled by the wall clock), jobs run on, the step is said once', async () => {
    const h = await steppableHub();
    try {
      expect(await h.get('/v1/system/health')).toBe(200);
      await until('the scheduler runs', () => h.sweeps() >= 1);
      h.step(-10 * 60_000);
      await until('the step is logged', () => h.steps().length === 1);
      expect(h.steps()[0].msg).toContain('stepped back by 10 minutes');
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) statuses.push(await h.get('/v1/system/health'));
      expect(new Set(statuses)).toEqual(new Set([200]));
      // the scheduler does not sleep out the step (node-cron waited for the wall clock to catch up)
      const before = h.sweeps();
      await until('the 5-second job runs on after the step back', () => h.sweeps() >= before + 2);
      expect(h.missed()).toBe(0);
      expect(h.steps()).toHaveLength(1);
    } finally {
      await h.hub.stop('SIGTERM');
    }
    expect(h.hub.child.exitCode).toBe(0);
  }, 120_000); // 120 s: a real hub whose clock is stepped, watched for its CPU and its log
});
