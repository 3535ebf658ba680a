import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import { SYNCED_TABLES } from '../../sync/merge-rules.ts';
import { NEVER_SYNCED, NOT_REFERENCES, WRITE_RULES } from '../../sync/write-rules.ts';
import { DIALECTS, freshDatabase } from '../helpers/db.ts';

/** The write rules hold for the schema as it is: a new table or column cannot slip past them. */
describe.each(DIALECTS)('sync write rules against the %s schema', (dialect) => {
  let database: Database;
  let columns: Map<string, Set<string>>;
  beforeAll(async () => {
    database = await freshDatabase(dialect);
    const tables = await database.db.introspection.getTables();
    columns = new Map(tables.map((t) => [t.name, new Set(t.columns.map((c) => c.name))]));
  });
  afterAll(() => database?.close());

  it('every synced table is owned: it has restaurant_id, or is the restaurants table itself', () => {
    for (const t of SYNCED_TABLES) {
      expect(columns.has(t), t).toBe(true);
      if (t !== 'restaurants') expect(columns.get(t)!.has('restaurant_id'), t).toBe(true);
    }
  });

  it('every column naming another row is listed as a reference (or said not to be one), to a synced table', () => {
    for (const t of SYNCED_TABLES) {
      const refs = WRITE_RULES[t].references ?? {};
      const idLike = [...columns.get(t)!].filter((c) => /_ids?$/.test(c) && c !== 'restaurant_id');
      for (const c of idLike) expect(c in refs || (NOT_REFERENCES[t] ?? []).includes(c), `${t}.${c}`).toBe(true);
      for (const [c, ref] of Object.entries(refs)) {
        expect(columns.get(t)!.has(c), `${t}.${c}`).toBe(true);
        expect(SYNCED_TABLES as readonly string[], `${t}.${c} → ${ref.table}`).toContain(ref.table);
      }
    }
  });

  it('every credential column exists; the tables never carried exist and are not synced', () => {
    for (const t of SYNCED_TABLES) for (const c of WRITE_RULES[t].credentials ?? []) expect(columns.get(t)!.has(c), `${t}.${c}`).toBe(true);
    expect(WRITE_RULES.users.credentials).toContain('password_hash');
    expect(WRITE_RULES.api_keys.credentials).toContain('hash');
    for (const t of NEVER_SYNCED) {
      expect(columns.has(t), t).toBe(true);
      expect(SYNCED_TABLES as readonly string[]).not.toContain(t);
    }
  });
});
