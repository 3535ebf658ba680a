import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// docs/contributors/testing.md: no test or hook timeout above 60 s without a comment saying why
// (on its line, or the line before). Waits (until, expect.poll, a race against a timer) are not
// test timeouts and are left to their own diagnosis.
const files = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : /\.(test|e2e)\.ts$/.test(e.name) ? [path.join(dir, e.name)] : []));

describe('test timeouts', () => {
  it('none above 60 s without a comment saying why', () => {
    const bare: string[] = [];
    for (const file of files('test')) {
      const lines = fs.readFileSync(file, 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (/until\(|expect\.poll|setTimeout|Promise\.race|deadline|wait_ms|setInterval/.test(line)) return;
        const m = /(?:timeout: *|\}, *|\), *)(\d+)_?(\d{3})\b/.exec(line);
        if (!m || Number(m[1] + m[2]) <= 60_000) return;
        if (line.includes('//') || /^\s*\/\/.*\d+ s\b/.test(lines[i - 1] ?? '')) return;
        bare.push(`${file}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(bare).toEqual([]);
  });
});
