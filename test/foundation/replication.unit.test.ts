import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SYNCED_TABLES } from '../../sync/merge-rules.ts';

// Each table declares in its own file whether it is replicated (server/db/replication.ts); the
// type-check refuses a table that declares neither or both. Here, what the declarations say:
// exactly the tables sync carries are replicated, and every table of the schema says one thing.
const ROOT = path.resolve(import.meta.dirname, '../..');
const dbFiles = ['server/db/tables', 'server/db/schema']
  .flatMap((d) => fs.readdirSync(path.join(ROOT, d)).map((f) => `${d}/${f}`))
  .concat('server/db/schema.ts')
  .map((f) => fs.readFileSync(path.join(ROOT, f), 'utf8'));

const declared = (kind: 'ReplicatedTables' | 'LocalTables') =>
  dbFiles.flatMap((text) => [...text.matchAll(new RegExp(`interface ${kind} \\{([^}]*)\\}`, 'g'))].flatMap((m) => [...m[1].matchAll(/^\s*([a-z_]+): true;/gm)].map((n) => n[1])));
const schemaTables = dbFiles.flatMap((text) => [...text.matchAll(/^ {2}([a-z_]+): [A-Za-z]+Table;/gm)].map((m) => m[1]));

describe('table replication, declared by each table', () => {
  const replicated = declared('ReplicatedTables');
  const local = declared('LocalTables');

  it('every table of the schema declares itself replicated or local, once', () => {
    expect(schemaTables.length).toBeGreaterThan(40);
    const all = [...replicated, ...local];
    expect(schemaTables.filter((t) => all.filter((d) => d === t).length !== 1)).toEqual([]);
    expect(all.filter((t) => !schemaTables.includes(t))).toEqual([]);
  });

  it('the replicated tables are exactly those sync carries; local ones stay out of it', () => {
    expect([...replicated].sort()).toEqual([...SYNCED_TABLES].sort());
    expect(local).toContain('print_jobs');
    expect(local).toContain('hub_settings');
  });
});
