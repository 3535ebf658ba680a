import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerCommitSync } from '../../server/db/commit-sync.ts';
import { openDatabase, type Database } from '../../server/db/database.ts';
import { insertRecord } from '../../server/db/records.ts';
import { rawSqliteOf } from '../../server/db/statement-shapes.ts';
import { Transactor } from '../../server/db/transact.ts';
import { versionsOf } from '../../server/db/versions.ts';
import { createRestaurant } from '../../server/domain/restaurants/restaurants.ts';
import { stationRow as station } from '../helpers/rows.ts';
import { until } from '../helpers/until.ts';

/** A sync of the WAL this test lets finish when it says so. */
function heldSync() {
  const calls: string[] = [];
  let release: ((err?: Error) => void) | null = null;
  const syncFile = async (file: string) => {
    calls.push(file);
    await new Promise<void>((resolve, reject) => (release = (err) => (err ? reject(err) : resolve())));
  };
  return {
    calls,
    syncFile,
    pending: () => release !== null,
    finish: (err?: Error) => {
      const r = release!;
      release = null;
      r(err);
    },
  };
}

/** Whether a promise has settled by the time the event loop has turned a few times. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(
    () => (done = true),
    () => (done = true),
  );
  // timers run: the event loop is not held by the sync
  await new Promise((r) => setTimeout(r, 30));
  return done;
}

// The hub's SQLite file: a group commit's sync of the WAL runs off the event loop, and
// nothing is answered or read before it ends (server/db/commit-sync.ts).
describe('group commit on a SQLite file: the sync of each commit', () => {
  let dir: string;
  let database: Database;
  let tx: Transactor;
  let restaurantId: string;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-commit-sync-'));
    database = await openDatabase({ dataDir: dir });
    tx = new Transactor(database.db, { groupCommit: true });
    restaurantId = (await tx.run((trx) => createRestaurant(trx, Date.now(), { name: 'Sync', slug: 'sync' }))).id;
  });
  afterEach(async () => {
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const stationCount = () =>
    database.db.selectFrom('stations').select((eb) => eb.fn.countAll<number>().as('n')).where('restaurant_id', '=', restaurantId).executeTakeFirstOrThrow();

  it('answers a batch only once its WAL is synced, reads nothing of it before, and leaves the event loop free meanwhile', async () => {
    const raw = rawSqliteOf(database.db)!;
    const sync = heldSync();
    registerCommitSync(database.db, raw, sync.syncFile);
    const before = Number((await stationCount()).n);
    const versionBefore = await versionsOf(database.db).of(database.db, restaurantId, ['stations']);
    const events: string[] = [];
    tx.onCommit(() => events.push('listeners'));

    const units = Promise.all(['a', 'b', 'c'].map((k) => tx.run((trx) => insertRecord(trx, 'stations', station(restaurantId, k)))));
    await until('the batch committed and its sync began', () => sync.pending());
    expect(sync.calls).toEqual([path.join(dir, 'comanda.sqlite-wal')]);
    // committed, not yet synced: SQLite was told not to sync this one, and every other commit still is
    expect(raw.pragma('synchronous', { simple: true })).toBe(2);
    const read = stationCount();
    const version = versionsOf(database.db).of(database.db, restaurantId, ['stations']);
    expect(await settled(units)).toBe(false);
    expect(await settled(read)).toBe(false);
    expect(await settled(version)).toBe(false);
    expect(events).toEqual([]);

    sync.finish();
    await units;
    expect(events).toEqual(['listeners']);
    expect(Number((await read).n)).toBe(before + 3);
    expect(await version).not.toBe(versionBefore);
  });

  it('a sync that fails fails the units of its batch', async () => {
    const sync = heldSync();
    registerCommitSync(database.db, rawSqliteOf(database.db)!, sync.syncFile);
    const unit = tx.run((trx) => insertRecord(trx, 'stations', station(restaurantId, 'x')));
    await until('the sync began', () => sync.pending());
    sync.finish(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
    await expect(unit).rejects.toThrow('EIO');
    // the connection is free again and the next batch syncs as usual
    const next = tx.run((trx) => insertRecord(trx, 'stations', station(restaurantId, 'y')));
    await until('the next sync began', () => sync.pending());
    sync.finish();
    await next;
  });

  it('the real sync: units of one batch commit together, a failed one leaves nothing, and all of it is there after a reopen', async () => {
    const results = await Promise.allSettled([
      tx.run((trx) => insertRecord(trx, 'stations', station(restaurantId, 'grill'))),
      tx.run(async (trx) => {
        await insertRecord(trx, 'stations', station(restaurantId, 'wok'));
        throw new Error('refused after writing');
      }),
      tx.run((trx) => insertRecord(trx, 'stations', station(restaurantId, 'pizza'))),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    await database.close();
    database = await openDatabase({ dataDir: dir });
    const keys = await database.db.selectFrom('stations').select('key').where('restaurant_id', '=', restaurantId).where('key', 'in', ['grill', 'wok', 'pizza']).execute();
    expect(keys.map((k) => k.key).sort()).toEqual(['grill', 'pizza']);
  });
});
