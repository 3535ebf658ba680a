import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setReservationStatus } from '../../server/domain/reservations/status.ts';
import { DIALECTS } from '../helpers/db.ts';
import { raceOnPostgres } from '../helpers/race.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { EVERY_DAY_NOON_TO_ELEVEN } from './helpers.ts';

/**
 * Two moves of one reservation at the same moment (the cloud runs writers side by side on
 * PostgreSQL; the hub's SQLite runs one unit of work at a time): the second must see the first.
 */
for (const dialect of DIALECTS.filter((d) => d === 'postgres')) {
  describe(`concurrent moves of one reservation on ${dialect}`, () => {
    let hub: TestHub;
    beforeAll(async () => {
      hub = await startHub(dialect);
      await hub.api.patch('/v1/settings', { timezone: 'Europe/Berlin', opening_hours: EVERY_DAY_NOON_TO_ELEVEN, auto_confirm_max_party_size: 4 });
      await hub.api.post('/v1/tables', { number: 1, capacity: 4 });
    });
    afterAll(() => hub?.close());

    const actor = () => ({ restaurantId: hub.restaurant.id, livemode: true, now: hub.clock.now() });

    it('an arrival racing a cancel: the second is refused and only the first is kept and announced', async () => {
      const r = await hub.api.post('/v1/reservations', { guest_name: 'Ada', party_size: 2, date: '2026-11-05', time: '19:00' });
      expect(r.body.status).toBe('confirmed');
      const outcome = await raceOnPostgres(
        hub.server.services.db,
        (trx) => setReservationStatus(trx, hub.server.services.registry.hooks, actor(), r.body.id, 'cancelled'),
        (trx) => setReservationStatus(trx, hub.server.services.registry.hooks, actor(), r.body.id, 'arrived'),
      );
      expect(outcome).toMatchObject({ status: 409 });
      const now = (await hub.api.get(`/v1/reservations/${r.body.id}`)).body;
      expect(now).toMatchObject({ status: 'cancelled', arrived_at: null });
      const events = (await hub.api.get('/v1/events?limit=10')).body.data.filter((e: { data: { object: { id: string } } }) => e.data.object.id === r.body.id);
      expect(events.map((e: { type: string }) => e.type)).not.toContain('reservation.arrived');
    });
  });
}
