import fs from 'node:fs';
import { assembleRegistry } from '../server/features/assemble.ts';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { insertRecord } from '../server/db/records.ts';
import { openDatabase, type Database } from '../server/db/database.ts';
import { Transactor } from '../server/db/transact.ts';
import { createCategory } from '../server/domain/menu/categories.ts';
import { createMenuItem } from '../server/domain/menu/items.ts';
import { changeOrderStatus } from '../server/domain/orders/change-status.ts';
import { createOrder } from '../server/domain/orders/create-order.ts';
import { createReservation } from '../server/domain/reservations/reservations.ts';
import { provisionRestaurant } from '../server/domain/restaurants/provision.ts';
import { updateSettings } from '../server/domain/restaurants/restaurants.ts';
import { ApiError } from '../server/errors.ts';
import { newId, PREFIXES } from '../server/ids.ts';
import type { Actor } from '../server/services.ts';
import { startEmbeddedPostgres } from '../test/helpers/embedded-postgres.ts';
// order hooks (analytics roll-ups, tickets) run for the orders written here, as in service

/** An embedded PostgreSQL for the cloud, thrown away afterwards; `fresh()` makes a new database. */
export async function cloudPostgres(): Promise<{ fresh(): Promise<string>; stop(): Promise<void> }> {
  // commit times kept: the lag scenarios split a lag at the cloud's commit (pg_xact_commit_timestamp)
  // BENCH_PG_STATEMENTS=1: statements counted (pg_stat_statements), to see what an order costs
  const statements = process.env.BENCH_PG_STATEMENTS ? ['-c', 'shared_preload_libraries=pg_stat_statements'] : [];
  const server = await startEmbeddedPostgres(['-c', 'max_connections=300', '-c', 'track_commit_timestamp=on', ...statements]);
  return {
    async fresh() {
      const name = `sync_${randomBytes(4).toString('hex')}`;
      const c = new pg.Client({ connectionString: server.url });
      await c.connect();
      await c.query(`CREATE DATABASE ${name}`);
      await c.end();
      if (statements.length) {
        const d = new pg.Client({ connectionString: server.url.replace(/\/postgres$/, `/${name}`) });
        await d.connect();
        await d.query('CREATE EXTENSION pg_stat_statements');
        await d.end();
      }
      return server.url.replace(/\/postgres$/, `/${name}`);
    },
    stop: () => server.stop(),
  };
}

export interface BenchHub {
  dir: string;
  database: Database;
  restaurantId: string;
  key: string;
  items: string[];
  tables: number;
}

const DAY = 86_400_000;

/** A hub's data dir with a restaurant open every day 10:00–23:00, a small menu and 12 tables. */
export async function makeHub(slug: string): Promise<BenchHub> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-bench-hub-'));
  const database = await openDatabase({ dataDir: dir });
  const tx = new Transactor(database.db);
  const now = Date.now() - 8 * DAY;
  const p = await provisionRestaurant(tx, now, { name: slug, slug });
  const actor: Actor = { restaurantId: p.restaurant.id, livemode: true, now };
  const items = await tx.run(async (trx) => {
    const day = [{ open: '10:00', close: '23:00' }];
    await updateSettings(trx, actor, {
      opening_hours: Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, day])),
    } as any);
    const cat = await createCategory(trx, actor, { name: 'Mains' } as any);
    const out: string[] = [];
    for (const [name, price] of [['Carbonara', 1450], ['Steak', 2990], ['Salad', 990], ['Water', 333], ['Tiramisu', 700]] as const) {
      out.push((await createMenuItem(trx, actor, { name, category: cat.id, price } as any)).id);
    }
    for (let n = 1; n <= 12; n++) {
      await insertRecord(trx, 'tables', {
        id: newId(PREFIXES.table, now),
        restaurant_id: actor.restaurantId,
        number: n,
        capacity: n <= 8 ? 4 : 8,
        min_capacity: 1,
        zone: 'Sala',
        status: 'available',
        is_active: 1,
        created: Math.floor(now / 1000),
        updated: Math.floor(now / 1000),
      });
    }
    return out;
  });
  return { dir, database, restaurantId: p.restaurant.id, key: p.keys.secret, items, tables: 12 };
}

/**
 * What a venue writes in `days` of service: `orders` orders of 1–3 lines, each placed and then
 * completed (a few cancelled), with their events, and `reservations` bookings for the coming
 * weeks, spread over the days; through the domain commands, many per transaction.
 */
export async function writeService(hub: BenchHub, opts: { orders: number; reservations: number; days: number; endMs?: number }): Promise<void> {
  const tx = new Transactor(hub.database.db);
  const end = opts.endMs ?? Date.now();
  const start = end - opts.days * DAY;
  const step = (end - start) / Math.max(1, opts.orders);
  // what a server of this database would run beside each order (tickets, roll-ups, webhooks)
  const ctx = { nodeTag: '', fleet: null, hooks: assembleRegistry().hooks };
  for (let done = 0; done < opts.orders; done += 200) {
    await tx.run(async (trx) => {
      for (let i = done; i < Math.min(opts.orders, done + 200); i++) {
        const actor: Actor = { restaurantId: hub.restaurantId, livemode: true, now: Math.floor(start + i * step) };
        const lines = Array.from({ length: 1 + (i % 3) }, (_, k) => ({ menu_item: hub.items[(i + k) % hub.items.length], quantity: 1 + (k % 2) }));
        const { order } = await createOrder(trx, actor, ctx, { type: i % 4 === 0 ? 'dine_in' : 'takeout', items: lines, source: 'pos', status: 'placed', customer_name: `Guest ${i}` });
        const later = { ...actor, now: actor.now + 20 * 60_000 };
        if (i % 25 === 0) await changeOrderStatus(trx, later, ctx, order.id, { status: 'cancelled', cancel_reason: 'guest left' });
        else await changeOrderStatus(trx, later, ctx, order.id, { status: 'completed' });
      }
    });
  }
  const times = ['12:00', '12:30', '13:00', '19:00', '19:30', '20:00', '20:30', '21:00'];
  for (let i = 0; i < opts.reservations; i++) {
    const actor: Actor = { restaurantId: hub.restaurantId, livemode: true, now: Math.floor(start + (i * (end - start)) / opts.reservations) };
    const date = new Date(actor.now + (1 + (i % 28)) * DAY).toISOString().slice(0, 10);
    try {
      await tx.run((trx) =>
        createReservation(trx, ctx.hooks, actor, { guest_name: `Booker ${i}`, guest_email: `booker${i}@example.com`, party_size: 2 + (i % 4), date, time: times[i % times.length] }),
      );
    } catch (err) {
      if (!(err instanceof ApiError)) throw err; // that sitting is full
    }
  }
}

export async function changeCount(hub: BenchHub): Promise<{ entries: number; top: number; orders: number; reservations: number }> {
  const db = hub.database.db;
  const { origin } = await db.selectFrom('node_state').select('origin').where('id', '=', 1).executeTakeFirstOrThrow();
  const log = await db
    .selectFrom('change_log')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('seq').as('top')])
    .where('restaurant_id', '=', hub.restaurantId)
    .where('origin', '=', origin)
    .executeTakeFirstOrThrow();
  const n = async (t: 'orders' | 'reservations') =>
    Number((await db.selectFrom(t).select((eb) => eb.fn.countAll<number>().as('n')).where('restaurant_id', '=', hub.restaurantId).executeTakeFirstOrThrow()).n);
  return { entries: Number(log.n), top: Number(log.top), orders: await n('orders'), reservations: await n('reservations') };
}

export const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN;
};
