import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type ApiClient, type TestHub } from '../helpers/server.ts';
import { changesOf, EVERY_DAY_NOON_TO_ELEVEN } from './helpers.ts';

// Live and sandbox bookings share the physical tables but never count against each other,
// and a key sees only its own mode's reservations (docs/integrators/reservations.md: Modes).
// The hub's clock starts at 2026-11-02 12:00 UTC (Monday, 13:00 in Berlin).
describe.each(DIALECTS)('reservation modes on %s', (dialect) => {
  let hub: TestHub;
  let live: ApiClient;
  let sandbox: ApiClient;
  let table: string;
  beforeAll(async () => {
    hub = await startHub(dialect);
    live = hub.api;
    sandbox = hub.api.withKey(hub.keys.sandbox);
    await live.patch('/v1/settings', { timezone: 'Europe/Berlin', opening_hours: EVERY_DAY_NOON_TO_ELEVEN, reservation_buffer_minutes: 15 });
    // the only table in the house: whoever holds it at a time holds the venue
    table = (await live.post('/v1/tables', { number: 1, capacity: 2 })).body.id;
  });
  afterAll(() => hub?.close());

  const book = (api: ApiClient, date: string, body: Record<string, unknown> = {}) =>
    api.post('/v1/reservations', { guest_name: 'Grace Hopper', party_size: 2, date, time: '19:00', ...body });
  const slot = async (api: ApiClient, date: string) =>
    (await api.get(`/v1/reservations/availability?date=${date}&from=19:00&to=19:00`)).body.slots[0];

  it('a sandbox booking leaves the table free for live availability and live bookings', async () => {
    const test = await book(sandbox, '2026-11-05');
    expect(test.status).toBe(201);
    expect(test.body).toMatchObject({ table, livemode: false });
    // the sandbox sees its own booking; asked first, so its frame is the cached one
    expect(await slot(sandbox, '2026-11-05')).toMatchObject({ available: false, remaining_capacity: 0, total_reservations: 1 });
    expect(await slot(live, '2026-11-05')).toMatchObject({ available: true, remaining_capacity: 2, total_reservations: 0 });
    const guest = await book(live, '2026-11-05');
    expect(guest.status).toBe(201);
    expect(guest.body).toMatchObject({ table, status: 'confirmed', livemode: true });
    expect(await slot(live, '2026-11-05')).toMatchObject({ available: false, total_reservations: 1 });
    expect(await slot(sandbox, '2026-11-05')).toMatchObject({ available: false, total_reservations: 1 });
  });

  it('a live booking leaves the table free for sandbox availability and sandbox bookings', async () => {
    expect((await book(live, '2026-11-06')).body).toMatchObject({ table, livemode: true });
    expect(await slot(live, '2026-11-06')).toMatchObject({ available: false, total_reservations: 1 });
    expect(await slot(sandbox, '2026-11-06')).toMatchObject({ available: true, remaining_capacity: 2, total_reservations: 0 });
    const named = await book(sandbox, '2026-11-06', { table });
    expect(named.status).toBe(201);
    expect(named.body).toMatchObject({ table, livemode: false });
    // but a second sandbox booking meets the first one
    const again = await book(sandbox, '2026-11-06');
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('table_unavailable');
  });

  it('moving a live booking onto a time a sandbox booking holds keeps its table', async () => {
    expect((await book(sandbox, '2026-11-07', { time: '20:00' })).body).toMatchObject({ table });
    const guest = await book(live, '2026-11-07', { time: '13:00' });
    const moved = await live.patch(`/v1/reservations/${guest.body.id}`, { time: '20:00' });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ time: '20:00', table });
  });

  it('each key lists, retrieves, updates, moves and cancels only its own mode', async () => {
    const mine = { live: (await book(live, '2026-11-09')).body, sandbox: (await book(sandbox, '2026-11-09')).body };
    expect([mine.live.status, mine.sandbox.status]).toEqual(['confirmed', 'confirmed']);
    for (const [api, own, other] of [
      [live, mine.live, mine.sandbox],
      [sandbox, mine.sandbox, mine.live],
    ] as const) {
      const ids = (await api.get('/v1/reservations?limit=100')).body.data.map((r: any) => r.id);
      expect(ids).toContain(own.id);
      expect(ids).not.toContain(other.id);
      const byDate = (await api.get('/v1/reservations?date=2026-11-09')).body.data.map((r: any) => r.id);
      expect(byDate).toEqual([own.id]);

      const log = await changesOf(hub);
      const refused = [
        await api.get(`/v1/reservations/${other.id}`),
        await api.patch(`/v1/reservations/${other.id}`, { notes: 'not yours', time: '20:00' }),
        await api.patch(`/v1/reservations/${other.id}/status`, { status: 'arrived' }),
        await api.post(`/v1/reservations/${other.id}/cancel`),
      ];
      for (const r of refused) {
        expect(r.status).toBe(404);
        expect(r.body.error).toMatchObject({ code: 'resource_missing' });
      }
      expect(await changesOf(hub)).toBe(log);
    }
    // nothing changed, seen from each reservation's own key
    expect((await live.get(`/v1/reservations/${mine.live.id}`)).body).toEqual(mine.live);
    expect((await sandbox.get(`/v1/reservations/${mine.sandbox.id}`)).body).toEqual(mine.sandbox);
    // and the own key still works on each
    expect((await sandbox.post(`/v1/reservations/${mine.sandbox.id}/cancel`)).body).toMatchObject({ status: 'cancelled' });
    expect((await live.patch(`/v1/reservations/${mine.live.id}/status`, { status: 'arrived' })).body).toMatchObject({ status: 'arrived' });
  });

  it('a sandbox no-show does not raise a live guest’s no-show risk', async () => {
    const phone = '+49 170 5551234';
    const test = await book(sandbox, '2026-11-10', { time: '12:00', guest_phone: phone });
    const clock = hub.clock.now();
    hub.clock.set(Date.UTC(2026, 10, 10, 11, 30)); // 12:30 Berlin
    expect((await sandbox.patch(`/v1/reservations/${test.body.id}/status`, { status: 'no_show' })).body.status).toBe('no_show');
    const known = await book(live, '2026-11-10', { time: '19:00', guest_phone: phone });
    const stranger = await book(live, '2026-11-10', { time: '16:00', guest_phone: '+49 170 5559876' });
    hub.clock.set(clock);
    // same lead-time band, party, weekday and contact: only history could tell them apart
    expect(known.body.no_show_risk).toBe(stranger.body.no_show_risk);
  });
});
