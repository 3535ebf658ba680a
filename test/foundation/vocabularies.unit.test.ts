import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LINE_TRANSITIONS } from '../../server/model/orders.ts';
import { nextStatus, type LineStatus } from '../../app/web/src/screens/tickets.ts';

// Each vocabulary is one `as const` in server/model/ (issue 46): tables, schemas, presenters and
// the web (through app/web/api-types.ts) derive from it. A list written out again elsewhere drifts
// (a weekday list was once Sunday-first in one place and capitalised in another).
const ROOT = path.resolve(import.meta.dirname, '../..');
const VOCABULARIES: Record<string, RegExp> = {
  weekdays: /'monday',\s*'tuesday'|'sunday',\s*'monday'|'Sunday',\s*'Monday'|'Monday',\s*'Tuesday'/i,
  'reservation statuses': /'pending',\s*'confirmed',\s*'arrived'|'pending' \| 'confirmed' \| 'arrived'/,
  'waitlist statuses': /'waiting',\s*'notified',\s*'seated'|'waiting' \| 'notified'/,
  'order statuses': /'draft',\s*'placed',\s*'preparing'|'draft' \| 'placed' \| 'preparing'/,
  'line statuses': /'pending',\s*'preparing',\s*'ready'|'pending' \| 'preparing' \| 'ready'/,
  'order types': /'dine_in',\s*'takeout'|'dine_in' \| 'takeout'/,
};
// where a list may stand: the model itself, generated code, migrations (their SQL is history),
// translations, and sync's merge precedence (an order of its own, not the vocabulary)
const EXEMPT = [/^server\/model\//, /api\.gen\.ts$/, /^server\/db\/migrations\//, /\/i18n\//, /^sync\/merge-rules\.ts$/];

function walk(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'dist' ? [] : walk(rel);
    return /\.tsx?$/.test(e.name) ? [rel] : [];
  });
}

describe('vocabularies are declared once', () => {
  it('no source file spells out a vocabulary the model declares', () => {
    const files = ['server', 'sync', 'app/web/src'].flatMap(walk).filter((f) => !EXEMPT.some((re) => re.test(f)));
    expect(files.length).toBeGreaterThan(300);
    const found = files.flatMap((f) => {
      const text = fs.readFileSync(path.join(ROOT, f), 'utf8');
      return Object.entries(VOCABULARIES)
        .filter(([, re]) => re.test(text))
        .map(([name]) => `${f}: ${name}`);
    });
    expect(found).toEqual([]);
  });

  it("a kitchen screen's tap follows the server's line moves, stopping at ready (serving is the pass's)", () => {
    const steps: (LineStatus | null)[] = [];
    for (let s: LineStatus | null = 'pending'; s; s = nextStatus(s)) steps.push(s);
    expect(steps).toEqual(['pending', 'preparing', 'ready']);
    expect(LINE_TRANSITIONS.pending[0]).toBe('preparing');
  });
});
