import type { Transactor } from '../db/transact.ts';
import { insertRecord } from '../db/records.ts';
import { createCategory } from '../domain/menu/categories.ts';
import { createMenuItem } from '../domain/menu/items.ts';
import { createModifierGroup } from '../domain/menu/modifier-groups.ts';
import { createStation } from '../domain/menu/stations.ts';
import { getSettings, updateSettings } from '../domain/restaurants/restaurants.ts';
import { pricesIncludeTaxByDefault } from '../model/settings.ts';
import { newId, PREFIXES } from '../ids.ts';
import type { Actor } from '../services.ts';
import { DEMO_GROUPS, DEMO_MENU } from './menu.ts';

import type { DemoOptions } from './step.ts';
import { ordersDemo } from './orders.ts';
import { reservationsDemo } from './reservations.ts';
import { guestDemo } from './guest.ts';
import { webhooksDemo } from './webhooks.ts';
import { analyticsDemo } from './analytics.ts';
import { realtimeDemo } from './realtime.ts';
import { printersDemo } from './printers.ts';

const featureSteps = [ordersDemo, reservationsDemo, guestDemo, webhooksDemo, analyticsDemo, realtimeDemo, printersDemo];

const lunchAndDinner = [
  { open: '11:30', close: '14:30' },
  { open: '17:30', close: '23:00' },
];

/**
 * Fills a fresh restaurant with a believable venue. Each feature adds its own step here
 * (tables, QR codes, order history, …) and may add fields to the returned object.
 */
export type { DemoOptions };

export async function seedDemo(tx: Transactor, actor: Actor, opts: DemoOptions): Promise<Record<string, unknown>> {
  const result: Record<string, unknown> = {};
  await tx.run(async (trx) => {
    await createStation(trx, actor, { key: 'grill', name: 'Grill' });
    // the demo venue follows setup's rule: menu prices include the tax unless in USD or CAD
    const { currency } = await getSettings(trx, actor.restaurantId);
    await updateSettings(trx, actor, {
      prices_include_tax: pricesIncludeTaxByDefault(currency),
      opening_hours: {
        tuesday: lunchAndDinner,
        wednesday: lunchAndDinner,
        thursday: lunchAndDinner,
        friday: [{ open: '11:30', close: '14:30' }, { open: '17:30', close: '01:00' }],
        saturday: [{ open: '12:00', close: '01:00' }],
        sunday: [{ open: '12:00', close: '22:00' }],
      },
      waitlist: { enabled: true, max_party_size: 8, message: 'We will text you when your table is ready.' },
    });
    const groups: Record<string, string> = {};
    for (const [key, g] of Object.entries(DEMO_GROUPS)) {
      const row = await createModifierGroup(trx, actor, {
        name: g.name,
        required: g.required,
        min_selections: g.min,
        max_selections: g.max,
        modifiers: g.modifiers.map(([name, price_adjustment], i) => ({ name, price_adjustment, is_default: g.required === true && i === 0 })),
      });
      groups[key] = row.id;
    }
    const categories: Record<string, string> = {};
    let sort = 0;
    for (const c of DEMO_MENU) {
      const cat = await createCategory(trx, actor, {
        name: c.category,
        station: c.station,
        parent_category: c.parent ? categories[c.parent] : null,
        sort_order: sort++,
      });
      categories[c.category] = cat.id;
      let itemSort = 0;
      for (const [name, price, cost, groupKeys = [], extra = {}] of c.items) {
        await createMenuItem(trx, actor, {
          name,
          category: cat.id,
          price,
          cost,
          modifier_groups: groupKeys.map((k) => groups[k]),
          preparation_time_minutes: c.station === 'bar' ? 3 : 15,
          sort_order: itemSort++,
          ...extra,
        });
      }
    }
    const now = Math.floor(actor.now / 1000);
    const capacities = [2, 2, 2, 2, 4, 4, 4, 4, 6, 6, 8, 10];
    for (const [i, capacity] of capacities.entries()) {
      await insertRecord(trx, 'tables', {
        id: newId(PREFIXES.table, actor.now),
        restaurant_id: actor.restaurantId,
        number: i + 1,
        capacity,
        min_capacity: capacity >= 6 ? 3 : 1,
        zone: i < 8 ? 'Sala' : 'Terrazza',
        status: 'available',
        is_active: 1,
        created: now,
        updated: now,
      });
    }
  });
  for (const step of featureSteps) await step(tx, actor, opts, result);
  return result;
}
