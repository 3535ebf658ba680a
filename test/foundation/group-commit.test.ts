import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import { insertRecord, updateRecord } from '../../server/db/records.ts';
import { Transactor } from '../../server/db/transact.ts';
import { createRestaurant } from '../../server/domain/restaurants/restaurants.ts';
import { DIALECTS, freshDatabase } from '../helpers/db.ts';
import { stationRow as station } from '../helpers/rows.ts';


// Group commit is what the hub runs on SQLite; PostgreSQL keeps one transaction per unit.
// Both modes must keep the same promises, so both are checked on every dialect.
describe.each(DIALECTS.flatMap((d) => [[d, true] as const, [d, false] as const]))('units of work on %s (group commit %s)', (dialect, groupCommit) => {
  let database: Database;
  let tx: Transactor;
  let restaurantId: string;

  beforeEach(async () => {
    database = await freshDatabase(dialect);
    tx = new Transactor(database.db, { groupCommit });
    restaurantId = (await tx.run((trx) => createRestaurant(trx, Date.now(), { name: 'Group', slug: 'group' }))).id;
  });
  afterEach(async () => {
    await database.close();
  });

  const stationKeys = async () =>
    (await database.db.selectFrom('stations').select('key').where('restaurant_id', '=', restaurantId).execute()).map((r) => r.key).sort();
  const logged = async () =>
    database.db.selectFrom('change_log').select(['seq', 'table_name', 'row_id', 'data']).where('table_name', '=', 'stations').orderBy('seq').execute();

  it('a unit that fails leaves nothing behind, and the units next to it commit', async () => {
    const before = (await logged()).length;
    const results = await Promise.allSettled([
      tx.run((trx) => insertRecord(trx, 'stations', station(restaurantId, 'grill'))),
      tx.run(async (trx) => {
        await insertRecord(trx, 'stations', station(restaurantId, 'wok'));
        throw new Error('refused after writing');
      }),
      tx.run((trx) => insertRecord(trx, 'stations', station(restaurantId, 'pizza'))),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason.message).toBe('refused after writing');
    expect(await stationKeys()).toEqual(['bar', 'dessert', 'grill', 'kitchen', 'other', 'pizza']);
    // the log holds exactly the committed writes (numbered without gaps on SQLite; PostgreSQL's
    // sequence does not hand a rolled-back unit's number out again)
    const log = await logged();
    // (which of two concurrent PostgreSQL transactions takes its log position first is up to the server)
    expect(log.slice(before).map((l) => JSON.parse(l.data).key).sort()).toEqual(['grill', 'pizza']);
    const all = await database.db.selectFrom('change_log').select('seq').orderBy('seq').execute();
    if (dialect === 'sqlite') expect(all.map((r) => Number(r.seq))).toEqual(all.map((_, i) => i + 1));
    else expect(new Set(all.map((r) => r.seq)).size).toBe(all.length);
  });

  it('answers a unit only once it has committed, after the commit listeners ran', async () => {
    const seen: string[] = [];
    tx.onCommit(() => seen.push('committed'));
    await Promise.all(
      ['a', 'b', 'c'].map((k) =>
        tx.run((trx) => insertRecord(trx, 'stations', station(restaurantId, k))).then(() => seen.push(`answered ${k}`)),
      ),
    );
    expect(seen[0]).toBe('committed');
    expect(seen.filter((s) => s.startsWith('answered')).sort()).toEqual(['answered a', 'answered b', 'answered c']);
    if (groupCommit) expect(seen.filter((s) => s === 'committed')).toHaveLength(1);
  });

  it('tells the commit listeners which restaurants the committed units wrote, and only those', async () => {
    const other = (await tx.run((trx) => createRestaurant(trx, Date.now(), { name: 'Other', slug: 'other' }))).id;
    const seen: string[][] = [];
    tx.onCommit((scopes) => seen.push([...(scopes ?? ['(any)'])].sort()));
    await Promise.all([
      tx.run((trx) => insertRecord(trx, 'stations', station(restaurantId, 'a'))),
      tx.run((trx) => insertRecord(trx, 'stations', station(other, 'b'))),
    ]);
    // one commit for both (group commit) or one each
    expect([...new Set(seen.flat())].sort()).toEqual([restaurantId, other].sort());
    if (groupCommit) expect(seen).toEqual([[restaurantId, other].sort()]);
    else expect(seen.map((s) => s.length)).toEqual([1, 1]);
    seen.length = 0;
    // a unit that logs nothing wakes nobody waiting on a restaurant
    await tx.run(async (trx) => {
      await trx.selectFrom('stations').select('id').execute();
    });
    expect(seen).toEqual([[]]);
    seen.length = 0;
    await tx.run((trx) => insertRecord(trx, 'stations', station(other, 'c')));
    expect(seen).toEqual([[other]]);
  });

  it('a unit reads what the units before it in the same group wrote', async () => {
    await Promise.all([
      tx.run((trx) => insertRecord(trx, 'stations', station(restaurantId, 'first'))),
      tx.run(async (trx) => {
        const seen = await trx.selectFrom('stations').select('key').where('restaurant_id', '=', restaurantId).where('key', '=', 'first').executeTakeFirst();
        // a unique key: the second write of the same key must be refused, not double-booked
        if (seen) throw new Error('taken');
        return insertRecord(trx, 'stations', station(restaurantId, 'first'));
      }),
    ]).catch(() => undefined);
    expect((await stationKeys()).filter((k) => k === 'first')).toHaveLength(1);
  });

  it('when the commit itself fails, no unit of the group is answered as stored', async () => {
    // a foreign key checked only at COMMIT, which then fails for the whole transaction
    await sql`create table gc_parent (id text primary key)`.execute(database.db);
    await sql`create table gc_child (id text primary key, parent text references gc_parent (id) deferrable initially deferred)`.execute(database.db);
    const results = await Promise.allSettled([
      tx.run((trx) => insertRecord(trx, 'stations', station(restaurantId, 'ok'))),
      tx.run(async (trx) => {
        await insertRecord(trx, 'stations', station(restaurantId, 'orphan'));
        await sql`insert into gc_child (id, parent) values ('c1', 'missing')`.execute(trx);
      }),
    ]);
    if (groupCommit) {
      expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
      expect(await stationKeys()).not.toContain('ok');
    } else {
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
      expect(await stationKeys()).toContain('ok');
    }
    expect(await stationKeys()).not.toContain('orphan');
    expect((await logged()).map((l) => JSON.parse(l.data).key)).not.toContain('orphan');
  });

  // PostgreSQL runs writers side by side: two units that lock the same rows in opposite
  // orders deadlock, and the one the server aborts must simply run again.
  if (dialect === 'postgres' && !groupCommit) {
    it('runs a unit again when PostgreSQL aborted it in a deadlock', async () => {
      const [a, b] = [station(restaurantId, 'left'), station(restaurantId, 'right')];
      await tx.run(async (trx) => {
        await insertRecord(trx, 'stations', a);
        await insertRecord(trx, 'stations', b);
      });
      let arrived = 0;
      let release!: () => void;
      const bothHoldOne = new Promise<void>((r) => (release = r));
      const lockBoth = (first: string, second: string, name: string) =>
        tx.run(async (trx) => {
          await updateRecord(trx, 'stations', { id: first }, { name });
          // on the first attempt each unit waits until the other holds its first row
          if (++arrived === 2) release();
          await Promise.race([bothHoldOne, new Promise((r) => setTimeout(r, 2000))]);
          await updateRecord(trx, 'stations', { id: second }, { name });
        });
      const results = await Promise.allSettled([lockBoth(a.id, b.id, 'one'), lockBoth(b.id, a.id, 'two')]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
      // a deadlock happened: a unit ran more than once
      expect(arrived).toBeGreaterThan(2);
    });
  }
});
