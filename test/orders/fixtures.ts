import { afterAll, beforeAll } from 'vitest';
import type { Dialect } from '../../server/db/database.ts';
import { insertRecord } from '../../server/db/records.ts';
import { newId, PREFIXES } from '../../server/ids.ts';
import { countRows, startHub, type ApiClient, type TestHub } from '../helpers/server.ts';

export interface Menu {
  pasta: string;
  steak: string;
  water: string;
  soldOut: string;
  retired: string;
  grillCategory: string;
  doneness: string;
  extras: string;
  table: string;
  table2: string;
}

/**
 * A hub of `dialect` with seedMenu's menu, started before the suite's tests (handed to `take`,
 * which keeps them in the suite's own variables) and closed after them.
 */
export function hubWithMenu(dialect: Dialect, take: (t: { hub: TestHub; menu: Menu }) => void): void {
  let hub: TestHub | undefined;
  beforeAll(async () => {
    hub = await startHub(dialect);
    take({ hub, menu: await seedMenu(hub) });
  });
  afterAll(() => hub?.close());
}

/** A small menu through the API, plus two tables (tables belong to another feature's API). */
export async function seedMenu(hub: TestHub, api: ApiClient = hub.api, restaurantId = hub.restaurant.id): Promise<Menu> {
  const ok = <T>(r: { status: number; body: T }) => {
    if (r.status >= 300) throw new Error(JSON.stringify(r.body));
    return r.body as any;
  };
  await api.post('/v1/stations', { key: 'grill', name: 'Grill' });
  const pastaCat = ok(await api.post('/v1/menu_categories', { name: 'Pasta' }));
  const grillCat = ok(await api.post('/v1/menu_categories', { name: 'Grill', station: 'grill' }));
  const drinks = ok(await api.post('/v1/menu_categories', { name: 'Drinks', station: 'bar' }));
  const doneness = ok(
    await api.post('/v1/modifier_groups', {
      name: 'Doneness',
      required: true,
      max_selections: 1,
      modifiers: [{ name: 'Rare' }, { name: 'Medium' }, { name: 'Well done', is_available: false }],
    }),
  );
  const extras = ok(
    await api.post('/v1/modifier_groups', {
      name: 'Extras',
      max_selections: 2,
      modifiers: [
        { name: 'Parmesan', price_adjustment: 150 },
        { name: 'Chili', price_adjustment: 50 },
        { name: 'Truffle', price_adjustment: 400 },
      ],
    }),
  );
  const pasta = ok(await api.post('/v1/menu_items', { name: 'Carbonara', category: pastaCat.id, price: 1450, modifier_groups: [extras.id], preparation_time_minutes: 12 }));
  const steak = ok(
    await api.post('/v1/menu_items', { name: 'Steak', category: grillCat.id, price: 2990, modifier_groups: [doneness.id, extras.id], preparation_time_minutes: 20 }),
  );
  const water = ok(await api.post('/v1/menu_items', { name: 'Water', category: drinks.id, price: 333, tax_rate: 0.07 }));
  const soldOut = ok(await api.post('/v1/menu_items', { name: 'Tiramisu', category: pastaCat.id, price: 700, is_available: false }));
  const retired = ok(await api.post('/v1/menu_items', { name: 'Old dish', category: pastaCat.id, price: 900, is_active: false }));
  const tables = await hub.server.services.tx.run(async (trx) => {
    const out: string[] = [];
    const base = await trx.selectFrom('tables').select('number').where('restaurant_id', '=', restaurantId).orderBy('number', 'desc').executeTakeFirst();
    for (const n of [1, 2]) {
      const row = await insertRecord(trx, 'tables', {
        id: newId(PREFIXES.table, hub.clock.now()),
        restaurant_id: restaurantId,
        number: (base?.number ?? 0) + n,
        capacity: 4,
        min_capacity: 1,
        zone: null,
        status: 'available',
        is_active: 1,
        created: 0,
        updated: 0,
      });
      out.push(row.id);
    }
    return out;
  });
  return {
    pasta: pasta.id,
    steak: steak.id,
    water: water.id,
    soldOut: soldOut.id,
    retired: retired.id,
    grillCategory: grillCat.id,
    doneness: doneness.id,
    extras: extras.id,
    table: tables[0],
    table2: tables[1],
  };
}

/** Rows that any order write would touch, to prove a refusal wrote nothing. */
export async function snapshot(hub: TestHub) {
  return {
    orders: await countRows(hub, 'orders'),
    order_items: await countRows(hub, 'order_items'),
    events: await countRows(hub, 'events'),
    customers: await countRows(hub, 'customers'),
    change_log: await countRows(hub, 'change_log'),
  };
}
