import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../server/db/database.ts';
import { insertRecords } from '../../server/db/records.ts';
import { Transactor } from '../../server/db/transact.ts';
import { until } from '../helpers/until.ts';

describe('the hub database file (SQLite)', () => {
  let database: Database | undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-wal-'));
  afterEach(async () => {
    await database?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('copies committed pages into the database file off the request thread', async () => {
    database = await openDatabase({ dataDir: dir });
    const file = path.join(dir, 'comanda.sqlite');
    const before = fs.statSync(file).size;
    // ~3 MB of records: far below the writer's own automatic checkpoint (about 40 MB)
    const rows = Array.from({ length: 3000 }, (_, i) => ({
      id: `st_${i}`,
      restaurant_id: 'rst_wal',
      key: `k${i}`,
      name: 'x'.repeat(1000),
      is_active: 1,
      created: 1,
      updated: 1,
    }));
    await new Transactor(database.db).run((trx) => insertRecords(trx, 'stations', rows));
    expect(fs.statSync(path.join(dir, 'comanda.sqlite-wal')).size).toBeGreaterThan(3_000_000);
    // the writer leaves checkpoints to the worker: its own automatic one only past ~40 MB
    // (the worker may already have copied these pages, so the file size proves nothing here)
    const { rows: auto } = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(database.db);
    expect(auto[0].wal_autocheckpoint).toBe(10_000);
    await until('the worker checkpointed the pages into the database file', () => fs.statSync(file).size > before + 3_000_000, { diagnose: () => `${fs.statSync(file).size - before} bytes more` });
    expect(fs.statSync(file).size).toBeGreaterThan(before + 3_000_000);
    // closing stops the worker and leaves a database another connection reads in full
    await database.close();
    database = await openDatabase({ dataDir: dir });
    const n = await database.db.selectFrom('stations').select((eb) => eb.fn.countAll<number>().as('n')).where('restaurant_id', '=', 'rst_wal').executeTakeFirstOrThrow();
    expect(Number(n.n)).toBe(3000);
  });

  it('syncs every commit before it is answered (WAL, synchronous FULL) and checks foreign keys', async () => {
    database = await openDatabase({ dataDir: dir });
    const pragma = async (name: string) => Object.values((await sql.raw(`pragma ${name}`).execute(database!.db)).rows[0] as object)[0];
    expect(await pragma('journal_mode')).toBe('wal');
    // 2 = FULL: the WAL is synced at every commit, so an answered order survives a power cut
    expect(await pragma('synchronous')).toBe(2);
    expect(await pragma('foreign_keys')).toBe(1);
  });
});
