import { DateTime } from 'luxon';
import { provisionRestaurant } from '../../server/domain/restaurants/provision.ts';
import { ApiClient } from '../../test/helpers/server.ts';
import type { BenchScenario } from '../scenario.ts';

const TABLES = 40;
const RESERVATIONS = 300;

export const scenarios: BenchScenario[] = [
  {
    name: 'GET /v1/reservations/availability (40 tables, 300 reservations that day)',
    target: 'p50 < 20 ms and >= 30% of baseline rps (SQLite)',
    minRatio: 0.3,
    maxP50Ms: 20,
    http: async (ctx) => {
      // A restaurant of its own, so the floor is exactly 40 tables and no other scenario is touched.
      const now = ctx.services.clock.now();
      const own = await provisionRestaurant(ctx.services.tx, now, { name: 'Bench Reservations', slug: `bench-rsv-${now.toString(36)}` });
      const api = new ApiClient(ctx.url, own.keys.secret);
      const everyDay = [{ open: '11:00', close: '23:30' }];
      await api.patch('/v1/settings', {
        timezone: 'Europe/Berlin',
        opening_hours: Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, everyDay])),
        reservation_buffer_minutes: 15,
      });
      const tables: string[] = [];
      for (let n = 1; n <= TABLES; n++) {
        tables.push((await api.post('/v1/tables', { number: n, capacity: n % 5 === 0 ? 6 : n % 2 ? 2 : 4 })).body.id);
      }
      const date = DateTime.fromMillis(now, { zone: 'Europe/Berlin' }).plus({ days: 7 }).toISODate()!;
      // 7–8 sittings of an hour (plus the 15-minute buffer) per table, from 11:00.
      for (let i = 0; i < RESERVATIONS; i++) {
        const table = i % TABLES;
        const start = 11 * 60 + Math.floor(i / TABLES) * 75;
        const time = `${String(Math.floor(start / 60)).padStart(2, '0')}:${String(start % 60).padStart(2, '0')}`;
        const r = await api.post('/v1/reservations', {
          guest_name: `Bench guest ${i}`,
          guest_email: `guest${i % 120}@bench.example`,
          party_size: 2,
          date,
          time,
          duration_minutes: 60,
          table: tables[table],
        });
        if (r.status !== 201) throw new Error(`bench setup: reservation ${i} refused: ${JSON.stringify(r.body)}`);
      }
      return { path: `/v1/reservations/availability?date=${date}&party_size=2`, headers: { 'x-api-key': own.keys.secret }, connections: 10 };
    },
  },
];
