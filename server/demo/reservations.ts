import { addDays, toMinutes, unixToWall } from '../domain/reservations/clock-time.ts';
import { isOpenAt } from '../domain/reservations/opening-hours.ts';
import { createReservation } from '../domain/reservations/reservations.ts';
import { getSettings } from '../domain/restaurants/restaurants.ts';
import { ApiError } from '../errors.ts';
import type { DemoStep } from './step.ts';

const GUESTS: [name: string, email: string | null, phone: string | null, party: number, time: string, extra?: { notes?: string; special_requests?: string; tags?: string[]; source?: string }][] = [
  ['Giulia Rossi', 'giulia.rossi@example.com', '+49 30 5550101', 2, '19:00', { tags: ['anniversary'], special_requests: 'Quiet table, please' }],
  ['Familie Schneider', 'schneider@example.com', null, 5, '12:30', { notes: 'High chair for one' }],
  ['Marco Bianchi', null, '+49 170 5550202', 4, '20:00', { source: 'widget' }],
  ['Lena Vogel', 'lena.vogel@example.com', '+49 171 5550303', 2, '19:30'],
  ['Team offsite', 'events@example.com', '+49 30 5550404', 8, '18:00', { tags: ['company'], notes: 'Set menu agreed by phone' }],
  ['Tom Becker', null, null, 3, '21:00', { source: 'phone' }],
];

/** A handful of upcoming reservations over the next days, on open times, tables assigned as the API would. */
export const reservationsDemo: DemoStep = async (tx, actor, _opts, result, hooks) => {
  const settings = await getSettings(tx.db, actor.restaurantId);
  const today = unixToWall(Math.floor(actor.now / 1000), settings.timezone).date;
  let made = 0;
  let day = 1;
  for (const [name, email, phone, party, time, extra] of GUESTS) {
    // the next day, from `day` on, that is open at this time
    for (let tries = 0; tries < 7; tries++, day++) {
      const date = addDays(today, day);
      if (!isOpenAt(settings, date, toMinutes(time))) continue;
      try {
        await tx.run(async (trx) => {
          // a guest of the order history who books again is the same guest (their visits show), not a namesake
          const regular = await trx.selectFrom('customers').select(['email', 'phone']).where('restaurant_id', '=', actor.restaurantId).where('name', '=', name).executeTakeFirst();
          const contact = regular ? { guest_email: regular.email, guest_phone: regular.phone ?? phone } : { guest_email: email, guest_phone: phone };
          return createReservation(trx, hooks, actor, { guest_name: name, ...contact, party_size: party, date, time, ...extra });
        });
        made++;
        break;
      } catch (err) {
        if (!(err instanceof ApiError)) throw err; // a full evening: try the next day
      }
    }
    day = (day % 5) + 1;
  }
  result.reservations = made;
};
