import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ApiError, ERROR_CODES } from '../../server/errors.ts';

/**
 * docs/integrators/api.md lists every error code of server/errors.ts, grouped by status,
 * between two markers. The list is made from the enum; this test fails when they differ.
 * After adding a code: `UPDATE_DOCS=1 npx vitest run test/foundation/error-codes-doc.test.ts`.
 */
const FILE = new URL('../../docs/integrators/api.md', import.meta.url);
const START = '<!-- error-codes:start (generated from server/errors.ts by test/foundation/error-codes-doc.test.ts) -->';
const END = '<!-- error-codes:end -->';

export function errorCodeList(): string {
  const byStatus = new Map<number, string[]>();
  for (const code of ERROR_CODES) {
    const status = new ApiError(code, '').status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return [...byStatus]
    .sort((a, b) => a[0] - b[0])
    .map(([status, codes]) => `- ${status}: ${codes.map((c) => `\`${c}\``).join(', ')}`)
    .join('\n');
}

describe('the error codes of docs/integrators/api.md', () => {
  it('are the enum of server/errors.ts, every one, by status', () => {
    const doc = readFileSync(FILE, 'utf8');
    const from = doc.indexOf(START);
    const to = doc.indexOf(END);
    expect(from, 'the markers of the generated list').toBeGreaterThan(-1);
    expect(to).toBeGreaterThan(from);
    const listed = doc.slice(from + START.length, to).trim();
    const made = errorCodeList();
    if (process.env.UPDATE_DOCS && listed !== made) {
      writeFileSync(FILE, `${doc.slice(0, from + START.length)}\n${made}\n${doc.slice(to)}`);
      return;
    }
    expect(listed, 'run UPDATE_DOCS=1 npx vitest run test/foundation/error-codes-doc.test.ts').toBe(made);
  });
});
