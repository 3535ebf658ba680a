import SQLite from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import { insertRecord } from '../../server/db/records.ts';
import { Transactor } from '../../server/db/transact.ts';
import { versionsOf } from '../../server/db/versions.ts';
import { createRestaurant } from '../../server/domain/restaurants/restaurants.ts';
import { freshDatabase } from '../helpers/db.ts';
import { stationRow as station } from '../helpers/rows.ts';

/** The SQL texts every better-sqlite3 statement of this process runs while `fn` runs. */
async function statementsDuring(fn: () => Promise<unknown>): Promise<string[]> {
  const probe = new SQLite(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('select 1')) as Record<'run' | 'all' | 'get', (...a: unknown[]) => unknown>;
  probe.close();
  const original = { run: proto.run, all: proto.all, get: proto.get };
  const seen: string[] = [];
  for (const kind of ['run', 'all', 'get'] as const)
    proto[kind] = function (this: SQLite.Statement, ...args: unknown[]) {
      seen.push(this.source.replace(/\s+/g, ' '));
      return original[kind].apply(this, args);
    };
  try {
    await fn();
  } finally {
    Object.assign(proto, original);
  }
  return seen;
}

// Group commit on SQLite: the units of one batch share one transaction, and with it the log's
// bookkeeping (the node's count, the restaurant's last stamp) and the versions they read.
describe('a group commit batch on SQLite', () => {
  let database: Database;
  let tx: Transactor;
  let restaurantId: string;

  beforeEach(async () => {
    database = await freshDatabase('sqlite');
    tx = new Transactor(database.db, { groupCommit: true });
    restaurantId = (await tx.run((trx) => createRestaurant(trx, Date.now(), { name: 'Batch', slug: 'batch' }))).id;
  });
  afterEach(async () => {
    await database.close();
  });

  /** The log as committed: gap-free, its count in node_state, each scope's last stamp in log_clocks. */
  const expectLogSettled = async () => {
    const log = await database.db.selectFrom('change_log').select(['seq', 'hlc', 'restaurant_id']).orderBy('seq').execute();
    expect(log.map((r) => Number(r.seq))).toEqual(log.map((_, i) => i + 1));
    const node = await database.db.selectFrom('node_state').select('seq').executeTakeFirstOrThrow();
    expect(Number(node.seq)).toBe(log.length);
    const clock = await database.db.selectFrom('log_clocks').select('hlc').where('restaurant_id', '=', restaurantId).executeTakeFirstOrThrow();
    const stamps = log.filter((r) => r.restaurant_id === restaurantId).map((r) => r.hlc!);
    expect(clock.hlc).toBe([...stamps].sort().at(-1));
  };

  it('takes the node count and the stamp once for all its units, and writes them once before it commits', async () => {
    const ran = await statementsDuring(() =>
      Promise.all(['a', 'b', 'c', 'd', 'e'].map((k) => tx.run((trx) => insertRecord(trx, 'stations', station(restaurantId, k))))),
    );
    expect(ran.filter((s) => s.startsWith('begin')).length).toBe(1);
    expect(ran.filter((s) => /^update "node_state"/.test(s))).toHaveLength(2);
    expect(ran.filter((s) => /^select "hlc" from "log_clocks"/.test(s))).toHaveLength(1);
    expect(ran.filter((s) => /^update "log_clocks"/.test(s))).toHaveLength(1);
    await expectLogSettled();
  });

  it('gives back the positions and stamps of a unit rolled back, first in the batch or later', async () => {
    const failing = (k: string) =>
      tx.run(async (trx) => {
        await insertRecord(trx, 'stations', station(restaurantId, k));
        // the unit's change is logged before it fails (a version read flushes it)
        await versionsOf(trx).of(trx, restaurantId, ['stations']);
        throw new Error('refused after writing');
      });
    const ok = (k: string) => tx.run((trx) => insertRecord(trx, 'stations', station(restaurantId, k)));
    const results = await Promise.allSettled([failing('x1'), ok('a'), failing('x2'), ok('b'), failing('x3')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'rejected', 'fulfilled', 'rejected']);
    await expectLogSettled();
    await Promise.allSettled([ok('c'), failing('x4'), ok('d')]);
    await expectLogSettled();
  });

  it('reads a version once for all its units; a unit that writes moves it, one rolled back does not', async () => {
    const version = (trx: Parameters<Parameters<Transactor['run']>[0]>[0]) => versionsOf(trx).of(trx, restaurantId, ['stations']);
    const seen: string[] = [];
    const ran = await statementsDuring(async () => {
      await Promise.all([1, 2, 3, 4].map(() => tx.run(async (trx) => seen.push(await version(trx)))));
    });
    const reads = ran.filter((s) => s.includes('from change_log where restaurant_id = ? and table_name = ?')).length;
    expect(reads).toBe(1);
    expect(new Set(seen).size).toBe(1);

    const [before, written, , after] = await Promise.allSettled([
      tx.run(version),
      tx.run(async (trx) => {
        await insertRecord(trx, 'stations', station(restaurantId, 'grill'));
        return version(trx);
      }),
      tx.run(async (trx) => {
        await insertRecord(trx, 'stations', station(restaurantId, 'wok'));
        await version(trx);
        throw new Error('rolled back');
      }),
      tx.run(version),
    ]);
    const value = (r: PromiseSettledResult<string>) => (r as PromiseFulfilledResult<string>).value;
    expect(value(written)).not.toBe(value(before));
    // the rolled-back unit's version (its own uncommitted write) is never handed to a later unit
    expect(value(after)).toBe(value(written));
    expect(await versionsOf(database.db).of(database.db, restaurantId, ['stations'])).toBe(value(written));
  });
});
