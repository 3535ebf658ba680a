import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// docs/contributors/testing.md: no fixed sleeps to let something happen; a test waits on the
// thing itself through until() (test/helpers/until.ts). A fixed sleep is a timer that only
// resolves a promise (`new Promise((r) => setTimeout(r, 300))`, `sleep(20)` from
// node:timers/promises). A timer racing a wait (`Promise.race`) bounds the wait and is not one.
// The pauses left are listed here, each with why it is not a wait for something to happen.
const ALLOWED: { file: string; line: string; why: string }[] = [
  { file: 'test/helpers/until.ts', line: 'setTimeout(r, every)', why: 'the one wait itself: the pause between two looks' },
  { file: 'test/helpers/db.ts', line: 'setTimeout(r, 20 * (attempt + 1))', why: 'a back-off between retries of a statement SQLite answered busy' },
  { file: 'test/foundation/idempotency-crash.test.ts', line: "retry-after", why: 'a till honouring the Retry-After of a 429, as the spec tells it to' },
  { file: 'test/webhooks/fixtures/crash-child.ts', line: 'setTimeout(r, 3)', why: 'a child process pacing its events as requests would, not a test waiting' },
  { file: 'test/guest/outbox-claim.test.ts', line: 'await sleep(20)', why: 'a slow fake SMS sender: its latency, not a wait' },
  { file: 'test/sync/recovery.test.ts', line: 'setTimeout(r, 1500)', why: 'shows a second webhook sender does NOT appear: nothing to wait on' },
  { file: 'test/sync/webhook-sides.test.ts', line: 'setTimeout(r, 1500)', why: 'shows a second webhook sender does NOT appear: nothing to wait on' },
  { file: 'test/foundation/logger.test.ts', line: 'setTimeout(r, 6_000)', why: 'shows the console stays quiet while the scheduler runs its jobs: nothing to wait on' },
  { file: 'test/backoffice/form-dialog.browser.test.ts', line: 'setTimeout(done, 50)', why: 'in the page: a timer queued after the close event, so the moment the native dialog would have closed has passed' },
  { file: 'test/screens/kitchen-updates.browser.test.ts', line: 'setTimeout(resolve, 100)', why: 'in the page: the window whose animation frames the test counts' },
];

const files = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));

/** Every fixed sleep in a file, as `file:line: text`. */
export function sleepsIn(file: string, source: string): { at: string; line: string }[] {
  // `setTimeout as sleep` from node:timers/promises: each call of the alias is a sleep
  const aliases = [...source.matchAll(/setTimeout as (\w+)\s*\}\s*from '(?:node:)?timers\/promises'/g)].map((m) => m[1]);
  const alias = aliases.length ? new RegExp(`\\b(?:${aliases.join('|')})\\(`) : null;
  const found: { at: string; line: string }[] = [];
  source.split('\n').forEach((line, i) => {
    if (/Promise\.race/.test(line) || /^\s*(\/\/|\*)/.test(line)) return;
    if (/setTimeout\(\s*\w+\s*,/.test(line) && /new Promise/.test(line) || (alias && alias.test(line) && !/import/.test(line))) {
      found.push({ at: `${file}:${i + 1}`, line: line.trim() });
    }
  });
  return found;
}

describe('fixed sleeps in tests', () => {
  const self = path.join('test', 'foundation', 'test-sleeps.unit.test.ts');
  const all = files('test')
    .filter((f) => f !== self)
    .flatMap((f) => sleepsIn(f.split(path.sep).join('/'), fs.readFileSync(f, 'utf8')));

  it('none outside the allow-list', () => {
    const bare = all.filter((s) => !ALLOWED.some((a) => s.at.startsWith(`${a.file}:`) && s.line.includes(a.line)));
    expect(bare.map((s) => `${s.at}: ${s.line}`)).toEqual([]);
  });

  it('every allowance still names a sleep (a stale one would let a new sleep in unseen)', () => {
    const stale = ALLOWED.filter((a) => !all.some((s) => s.at.startsWith(`${a.file}:`) && s.line.includes(a.line)));
    expect(stale).toEqual([]);
  });

  it('finds the forms a sleep takes', () => {
    const found = sleepsIn('x.ts', [
      "import { setTimeout as pause } from 'node:timers/promises';",
      'await new Promise((r) => setTimeout(r, 300));',
      'await page.evaluate(() => new Promise((done) => setTimeout(done, 50)));',
      'await pause(20);',
      'await Promise.race([gate, new Promise((r) => setTimeout(r, 15_000))]);',
      'const t = setTimeout(() => ac.abort(), 1000);',
    ].join('\n'));
    expect(found.map((f) => f.at)).toEqual(['x.ts:2', 'x.ts:3', 'x.ts:4']);
  });
});
