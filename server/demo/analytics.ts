import { DateTime } from 'luxon';
import { insertRecord } from '../db/records.ts';
import { rebuildRollups } from '../domain/analytics/rebuild.ts';
import { createInventoryItem } from '../domain/inventory/items.ts';
import { createStaff } from '../domain/staff/staff.ts';
import { newId, PREFIXES } from '../ids.ts';
import type { DemoStep } from './step.ts';

const STAFF = [
  { name: 'Giulia Rossi', email: 'giulia@trattoria.demo', role: 'manager', hourly_rate: 2200 },
  { name: 'Marco Bianchi', email: 'marco@trattoria.demo', role: 'server', hourly_rate: 1450 },
  { name: 'Sofia Conti', email: 'sofia@trattoria.demo', role: 'server', hourly_rate: 1450 },
  { name: 'Luca Ferrari', email: 'luca@trattoria.demo', role: 'cook', hourly_rate: 1700 },
  { name: 'Elena Greco', email: 'elena@trattoria.demo', role: 'cook', hourly_rate: 1650 },
  { name: 'Paolo Romano', email: 'paolo@trattoria.demo', role: 'bartender', hourly_rate: 1500 },
] as const;

// [name, unit, quantity, unit cost in cents, reorder level]
const INVENTORY: [string, string, number, number, number][] = [
  ['Tipo 00 flour', 'kg', 48, 95, 25],
  ['San Marzano tomatoes', 'kg', 18.5, 420, 20],
  ['Mozzarella fior di latte', 'kg', 9.2, 1150, 8],
  ['Parmigiano Reggiano', 'kg', 3.4, 2390, 4],
  ['Guanciale', 'kg', 2.75, 1890, 2],
  ['Extra virgin olive oil', 'l', 14, 1290, 6],
  ['Eggs', 'piece', 180, 32, 120],
  ['Basil', 'bunch', 6, 149, 8],
  ['Beef sirloin', 'kg', 11.3, 3290, 6],
  ['Sea bass', 'kg', 4.1, 2450, 3],
  ['Mascarpone', 'kg', 2.5, 890, 2],
  ['Espresso beans', 'kg', 7, 2190, 3],
  ['Chianti Classico', 'bottle', 36, 980, 24],
  ['Prosecco', 'bottle', 22, 760, 24],
  ['Lemons', 'kg', 3.2, 310, 2],
];

// local [start, end) of each shift kind, hours after midnight; which staff work it
const SHIFTS = [
  { from: 10.5, to: 15, who: [0, 1, 3] },
  { from: 16.5, to: 23.5, who: [1, 2, 3, 4, 5] },
];

/**
 * Staff with a shift history over the demo's history days (the venue is closed on
 * Mondays), the stock room, and the analytics roll-ups rebuilt over whatever order
 * history the orders step wrote.
 */
export const analyticsDemo: DemoStep = async (tx, actor, opts, result) => {
  const staff = await tx.run(async (trx) => {
    const users = [];
    for (const s of STAFF) users.push(await createStaff(trx, actor, s));
    for (const [name, unit, quantity, unit_cost, reorder_level] of INVENTORY) {
      await createInventoryItem(trx, actor, { name, unit, quantity, unit_cost, reorder_level });
    }
    return users;
  });
  const zone = (await tx.db.selectFrom('restaurants').select('timezone').where('id', '=', actor.restaurantId).executeTakeFirstOrThrow()).timezone;
  const today = DateTime.fromMillis(actor.now, { zone }).startOf('day');
  let shifts = 0;
  // a month per transaction keeps each one short
  for (let from = opts.historyDays; from >= 1; from -= 30) {
    await tx.run(async (trx) => {
      for (let d = from; d > Math.max(0, from - 30); d--) {
        const day = today.minus({ days: d });
        if (day.weekday === 1) continue;
        for (const [k, kind] of SHIFTS.entries()) {
          for (const i of kind.who) {
            // a little jitter so hours are not all round
            const jitter = ((d * 7 + i * 13 + k * 5) % 20) - 10;
            const clockIn = Math.floor(day.plus({ minutes: kind.from * 60 + jitter }).toSeconds());
            const clockOut = Math.floor(day.plus({ minutes: kind.to * 60 + jitter * 2 }).toSeconds());
            await insertRecord(trx, 'shifts', {
              id: newId(PREFIXES.shift, clockIn * 1000),
              restaurant_id: actor.restaurantId,
              user_id: staff[i].id,
              clock_in: clockIn,
              clock_out: clockOut,
              created: clockIn,
              updated: clockOut,
            });
            shifts++;
          }
        }
      }
    });
  }
  // The orders step may have written its history without the order hooks; a rebuild is
  // exact either way.
  const rollups = await tx.run((trx) => rebuildRollups(trx, actor.restaurantId));
  result.analytics = { staff: staff.length, shifts, inventory_items: INVENTORY.length, orders_counted: rollups.sales };
};
