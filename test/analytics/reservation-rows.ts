import type { Kysely } from 'kysely';
import { newId, PREFIXES } from '../../server/ids.ts';
import type { TestHub } from '../helpers/server.ts';

/**
 * Reservations belong to another feature. When its table is not in this build, a minimal
 * one with the columns the report reads is made; when it is, every other required column
 * gets a neutral value, so these rows fit either way.
 */
export async function insertReservations(
  hub: TestHub,
  rows: { status: string; party_size: number; date: string; time: string; livemode?: boolean }[],
): Promise<void> {
  const db = hub.server.services.db as unknown as Kysely<any>;
  let table = (await db.introspection.getTables()).find((t) => t.name === 'reservations');
  if (!table) {
    await db.schema
      .createTable('reservations')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('restaurant_id', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('party_size', 'integer', (c) => c.notNull())
      .addColumn('date', 'text', (c) => c.notNull())
      .addColumn('time', 'text', (c) => c.notNull())
      .addColumn('livemode', 'integer', (c) => c.notNull())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('updated', 'bigint', (c) => c.notNull())
      .execute();
    table = (await db.introspection.getTables()).find((t) => t.name === 'reservations')!;
  }
  const now = Math.floor(hub.clock.now() / 1000);
  for (const r of rows) {
    const row: Record<string, unknown> = {
      id: newId(PREFIXES.reservation, hub.clock.now()),
      restaurant_id: hub.restaurant.id,
      status: r.status,
      party_size: r.party_size,
      date: r.date,
      time: r.time,
      livemode: r.livemode === false ? 0 : 1,
      created: now,
      updated: now,
    };
    for (const c of table.columns) {
      if (c.name in row || c.isNullable || c.hasDefaultValue) continue;
      row[c.name] = /int|numeric|real|double/i.test(c.dataType) ? 0 : /json/i.test(c.dataType) ? '{}' : '';
    }
    for (const k of Object.keys(row)) if (!table.columns.some((c) => c.name === k)) delete row[k];
    await db.insertInto('reservations').values(row).execute();
  }
}
