import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import { insertRecord, updateRecord } from '../../server/db/records.ts';
import { Transactor } from '../../server/db/transact.ts';
import { queryVersions, versionsOf } from '../../server/db/versions.ts';
import { createRestaurant } from '../../server/domain/restaurants/restaurants.ts';
import { DIALECTS, freshDatabase } from '../helpers/db.ts';
import { stationRow as station } from '../helpers/rows.ts';


describe.each(DIALECTS)('record versions on %s', (dialect) => {
  let database: Database;
  let tx: Transactor;
  let restaurantId: string;
  let otherRestaurant: string;

  beforeEach(async () => {
    database = await freshDatabase(dialect);
    tx = new Transactor(database.db, { groupCommit: dialect === 'sqlite' });
    restaurantId = (await tx.run((trx) => createRestaurant(trx, Date.now(), { name: 'A', slug: 'a' }))).id;
    otherRestaurant = (await tx.run((trx) => createRestaurant(trx, Date.now(), { name: 'B', slug: 'b' }))).id;
  });
  afterEach(async () => {
    await database.close();
  });

  const of = (tables?: ('stations' | 'restaurants')[]) => versionsOf(database.db).of(database.db, restaurantId, tables);

  it('moves with every commit of the restaurant, and per table only with that table', async () => {
    const whole = await of();
    const stations = await of(['stations']);
    const settings = await of(['restaurants']);
    await tx.run((trx) => insertRecord(trx, 'stations', station(restaurantId, 'grill')));
    expect(await of()).not.toBe(whole);
    expect(await of(['stations'])).not.toBe(stations);
    expect(await of(['restaurants'])).toBe(settings);
    // another restaurant's writes change nothing here
    const now = await of();
    await tx.run((trx) => insertRecord(trx, 'stations', station(otherRestaurant, 'grill')));
    expect(await of()).toBe(now);
    await tx.run((trx) => updateRecord(trx, 'restaurants', { id: restaurantId }, { name: 'A2' }));
    expect(await of(['restaurants'])).not.toBe(settings);
  });

  it('names several tables (read in one statement on SQLite) exactly as the portable query does', async () => {
    const tables = ['stations', 'restaurants', 'menu_items'] as const;
    const both = () => Promise.all([versionsOf(database.db).of(database.db, restaurantId, tables), queryVersions.of(database.db, restaurantId, tables)]);
    // menu_items has no entry yet: its part of the version is '0'
    const [first, query] = await both();
    expect(first).toBe(query);
    expect(first.split('|')).toHaveLength(3);
    expect(first.split('|')[2]).toBe('0');
    await tx.run((trx) => insertRecord(trx, 'stations', station(restaurantId, 'smoker')));
    const [second, query2] = await both();
    expect(second).toBe(query2);
    expect(second).not.toBe(first);
    expect(second.split('|')[1]).toBe(first.split('|')[1]);
  });

  it('inside a unit of work counts its own writes, and a rolled-back unit never names a later version', async () => {
    const before = await of(['stations']);
    let inside = '';
    await expect(
      tx.run(async (trx) => {
        await insertRecord(trx, 'stations', station(restaurantId, 'wok'));
        inside = await versionsOf(trx).of(trx, restaurantId, ['stations']);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(inside).not.toBe(before);
    expect(await of(['stations'])).toBe(before);
    // the next commit takes the same log position on SQLite (it counts gap-free; PostgreSQL's
    // sequence moves on), yet its version is another either way
    await tx.run((trx) => insertRecord(trx, 'stations', station(restaurantId, 'pizza')));
    const after = await of(['stations']);
    expect(after).not.toBe(before);
    expect(after).not.toBe(inside);
    if (dialect === 'sqlite') expect(after.split(':')[0]).toBe(inside.split(':')[0]);
  });
});
