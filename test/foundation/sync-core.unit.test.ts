import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MERGE_RULES, SYNCED_TABLES } from '../../sync/merge-rules.ts';

// Sync's core knows no feature (issue 46): what differs between tables (order numbers, line
// positions, a restaurant owning itself, what a batch notes for the features) is declared per
// table in sync/merge-rules.ts, and features react to a batch through the server's registry.
const ROOT = path.resolve(import.meta.dirname, '../..');
const CORE = ['sync/apply.ts', 'sync/derived.ts'];

describe('the sync core', () => {
  it.each(CORE)('%s names no synced table', (file) => {
    const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
    const named = SYNCED_TABLES.filter((t) => text.includes(`'${t}'`));
    expect(named).toEqual([]);
  });

  it('declares behaviour only for tables sync carries', () => {
    expect(Object.keys(MERGE_RULES).filter((t) => !(SYNCED_TABLES as readonly string[]).includes(t))).toEqual([]);
  });
});
