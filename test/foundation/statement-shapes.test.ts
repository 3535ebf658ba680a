import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isUniqueViolation } from '../../server/errors.ts';
import type { Database } from '../../server/db/database.ts';
import { insertRecords } from '../../server/db/records.ts';
import { insertRows, runShape } from '../../server/db/statement-shapes.ts';
import { Transactor } from '../../server/db/transact.ts';
import { DIALECTS, freshDatabase } from '../helpers/db.ts';

describe.each(DIALECTS)('statements of one shape on %s', (dialect) => {
  let database: Database;
  beforeAll(async () => {
    database = await freshDatabase(dialect);
  });
  afterAll(async () => {
    await database?.close();
  });

  const row = (key: string, name: string) => ({
    id: `st_${key}`,
    restaurant_id: 'rst_x',
    key,
    name,
    is_active: 1,
    warn_after_minutes: null,
    late_after_minutes: null,
    position: 0,
    created: 1,
    updated: 2,
  });
  const stored = (key: string) => database.db.selectFrom('stations').selectAll().where('id', '=', `st_${key}`).executeTakeFirst();

  it('runs a shape again with the new values, whatever order the keys come in', async () => {
    expect(await insertRows(database.db, 'stations', [row('a', 'A')], true)).toEqual([row('a', 'A')]);
    // the same shape again: the values are the second row's, read back by RETURNING too
    expect(await insertRows(database.db, 'stations', [row('b', 'B')], true)).toEqual([row('b', 'B')]);
    const { name, key, ...rest } = row('c', 'C');
    await insertRows(database.db, 'stations', [{ name, ...rest, key }], false);
    expect(await stored('c')).toEqual(row('c', 'C'));
    await insertRows(database.db, 'stations', [row('d', 'D'), row('e', 'E')], false);
    expect(await stored('d')).toEqual(row('d', 'D'));
    expect(await stored('e')).toEqual(row('e', 'E'));
  });

  it('leaves rows that are not one shape to kysely: an undefined value is a column left out', async () => {
    // kysely drops `name`, so the NOT NULL column is refused rather than bound as undefined
    await expect(insertRows(database.db, 'stations', [{ ...row('f', 'F'), name: undefined }], false)).rejects.toThrow();
    expect(await stored('f')).toBeUndefined();
    // rows of one shape whose keys come in another order are bound by column name
    const { id, name, ...rest } = row('h', 'H');
    await insertRows(database.db, 'stations', [row('g', 'G'), { name, ...rest, id }], false);
    expect(await stored('g')).toEqual(row('g', 'G'));
    expect(await stored('h')).toEqual(row('h', 'H'));
  });

  it('runs with the values given, and refuses values that are not the ones kysely binds', async () => {
    const bump = (n: number) =>
      runShape(
        database.db,
        'test node_state+',
        () => database.db.updateTable('node_state').set((eb) => ({ seq: eb('seq', '+', n) })).where('id', '=', 1).returning('seq'),
        [n, 1],
      );
    const start = Number((await bump(0)).rows[0].seq);
    expect(Number((await bump(5)).rows[0].seq)).toBe(start + 5);
    expect(Number((await bump(2)).rows[0].seq)).toBe(start + 7);
    await expect(
      runShape(database.db, 'test wrong order', () => database.db.updateTable('node_state').set({ seq: 3 }).where('id', '=', 1), [1, 3]),
    ).rejects.toThrow(/not kysely's/);
  });

  it('inside a unit of work (the raw connection, on SQLite) runs the same shapes and rolls back with the unit', async () => {
    const tx = new Transactor(database.db, { groupCommit: dialect === 'sqlite' });
    const saved = await tx.run(async (trx) => {
      // twice, so the second run takes the known shape
      await insertRows(trx, 'stations', [row('u1', 'U1')], true);
      const again = await insertRows(trx, 'stations', [row('u2', 'U2')], true);
      const seq = (await runShape(trx, 'test unit bump', () => trx.updateTable('node_state').set((eb) => ({ seq: eb('seq', '+', 0) })).where('id', '=', 1).returning('seq'), [0, 1])).rows;
      return { again, seq };
    });
    expect(saved.again).toEqual([row('u2', 'U2')]);
    expect(saved.seq).toHaveLength(1);
    expect(await stored('u2')).toEqual(row('u2', 'U2'));
    await expect(
      tx.run(async (trx) => {
        await insertRows(trx, 'stations', [row('u3', 'U3')], false);
        await insertRows(trx, 'stations', [row('u4', 'U4')], false);
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(await stored('u3')).toBeUndefined();
    expect(await stored('u4')).toBeUndefined();
  });

  it('stores many rows at once exactly as given (on PostgreSQL as one array parameter per column, not a value each); a clash stores none of them', async () => {
    const kinds: string[] = [];
    const watched = database.db.withPlugin({ transformQuery: (a) => (kinds.push(a.node.kind), a.node), transformResult: async (a) => a.result }) as Kysely<any>;
    // values JSON must carry exactly: quotes, backslashes, unicode, a number-like text, nulls, big and negative numbers
    const many = Array.from({ length: 40 }, (_, i) => ({
      // whole values an array literal could misread: the word NULL, an empty text, braces and commas
      ...row(`m${i}`, [`NULL`, ``, `{1, "x"}\\`, ` padded `][i] ?? `Station "${i}" \\ ü ✓ ${i % 3 === 0 ? '[1,2]' : '0012'}`),
      warn_after_minutes: i % 2 ? null : i * 7,
      late_after_minutes: i % 5 ? -i : null,
      position: 2_000_000_000 + i,
    }));
    await insertRows(watched, 'stations', many.slice(0, 20), false);
    // on PostgreSQL the table's column types are read from the catalog once, then one statement a batch
    expect(kinds).toEqual(dialect === 'postgres' ? ['RawNode', 'RawNode'] : ['InsertQueryNode']);
    kinds.length = 0;
    await insertRows(watched, 'stations', many.slice(20), false);
    expect(kinds).toEqual([dialect === 'postgres' ? 'RawNode' : 'InsertQueryNode']);
    const back = await database.db.selectFrom('stations').selectAll().where('id', 'in', many.map((r) => r.id)).orderBy('id').execute();
    const num = (v: unknown) => (v === null ? null : Number(v));
    expect(back.map((r) => ({ ...r, position: Number(r.position), created: Number(r.created), updated: Number(r.updated), warn_after_minutes: num(r.warn_after_minutes), late_after_minutes: num(r.late_after_minutes) }))).toEqual(
      [...many].sort((a, b) => (a.id < b.id ? -1 : 1)),
    );
    // a row already stored among new ones: a unique violation (sync falls back to one change at a time on it), nothing stored
    const clash = [...Array.from({ length: 20 }, (_, i) => row(`n${i}`, 'N')), row('m3', 'again')];
    const err = await insertRows(database.db, 'stations', clash, false).then(() => null, (e) => e);
    expect(isUniqueViolation(err)).toBe(true);
    expect(await stored('n0')).toBeUndefined();
    // a text JSON cannot carry to PostgreSQL (a lone surrogate) sends its column the other way: stored, as the driver encodes it
    const odd = Array.from({ length: 20 }, (_, i) => row(`s${i}`, i === 7 ? 'half \ud83d of an emoji' : `S "${i}" {"k":"\\"}`));
    await insertRows(database.db, 'stations', odd, false);
    expect((await stored('s7'))?.name).toMatch(/^half \ufffd+ of an emoji$/);
    expect((await stored('s8'))?.name).toBe('S "8" {"k":"\\"}');
    // a value JSON would not carry as the driver binds it (an object) takes kysely's way
    kinds.length = 0;
    await expect(insertRows(watched, 'stations', Array.from({ length: 20 }, (_, i) => ({ ...row(`o${i}`, 'O'), name: { not: 'text' } as unknown as string })), false).catch(() => 'refused')).resolves.toBeDefined();
    expect(kinds).toEqual(['InsertQueryNode']);
  });

  it('logs a batch of new records with each row’s text exactly as the row serialises (on PostgreSQL as one JSON array of the rows’ texts)', async () => {
    const tx = new Transactor(database.db, { groupCommit: dialect === 'sqlite' });
    const rows = Array.from({ length: 30 }, (_, i) => ({ ...row(`log${i}`, `Log "${i}" \\ ü ✓ \u2028 {"not":"an object"}`), position: i }));
    const from = rows.map((r, i) => ({ op_id: `chg_log_${i}`, origin: 'node_other', origin_seq: 100 + i, hlc: `0190f0a0b0c${i % 10}.0000.other`, fields: i % 2 ? ['name', 'position'] : null }));
    await tx.run((trx) => insertRecords(trx, 'stations', rows, from));
    const log = await database.db.selectFrom('change_log').select(['op_id', 'origin', 'origin_seq', 'row_id', 'table_name', 'op', 'data', 'fields', 'hlc', 'restaurant_id']).where('op_id', 'like', 'chg_log_%').execute();
    const byOp = new Map(log.map((e) => [e.op_id, e]));
    rows.forEach((r, i) => {
      const e = byOp.get(from[i].op_id)!;
      expect(e.data).toBe(JSON.stringify(r));
      expect({ ...e, origin_seq: Number(e.origin_seq), data: undefined }).toEqual({
        op_id: from[i].op_id,
        origin: 'node_other',
        origin_seq: 100 + i,
        row_id: r.id,
        table_name: 'stations',
        op: 'insert',
        data: undefined,
        fields: from[i].fields ? JSON.stringify(from[i].fields) : null,
        hlc: from[i].hlc,
        restaurant_id: 'rst_x',
      });
    });
  });
});
