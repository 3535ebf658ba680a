import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type TestHub } from '../helpers/server.ts';

// The hub's clock starts at 2026-11-02 12:00 UTC (a Monday, 13:00 in Berlin).
describe.each(DIALECTS)('availability API on %s', (dialect) => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub(dialect);
    await hub.api.patch('/v1/settings', {
      timezone: 'Europe/Berlin',
      opening_hours: { monday: [{ open: '12:00', close: '15:00' }], tuesday: [{ open: '18:00', close: '01:00' }] },
      closed_dates: ['2026-11-10'],
      slot_duration_minutes: 30,
      reservation_buffer_minutes: 0,
    });
    await hub.api.post('/v1/tables', { number: 1, capacity: 2 });
    await hub.api.post('/v1/tables', { number: 2, capacity: 4, min_capacity: 3 });
  });
  afterAll(() => hub?.close());

  it('answers the spec shape, past slots of today unavailable', async () => {
    const r = await hub.api.get('/v1/reservations/availability?date=2026-11-02');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ object: 'reservation_availability', date: '2026-11-02', party_size: 2, slot_interval_minutes: 30, open: true, closed: false });
    // closing at 15:00: the last 90-minute sitting starts at 13:30 (ends by closing)
    expect(r.body.slots.map((s: any) => s.time)).toEqual(['12:00', '12:30', '13:00', '13:30']);
    expect(r.body.slots.map((s: any) => s.available)).toEqual([false, false, true, true]);
    expect(r.body.slots[2]).toEqual({ time: '13:00', available: true, remaining_capacity: 2, total_reservations: 0 });
  });

  it('filters by party size, narrows with from/to, overrides the interval', async () => {
    const four = await hub.api.get('/v1/reservations/availability?date=2026-11-09&party_size=4');
    expect(four.body.slots[0]).toMatchObject({ available: true, remaining_capacity: 4 });
    const six = await hub.api.get('/v1/reservations/availability?date=2026-11-09&party_size=6');
    expect(six.body.slots.every((s: any) => !s.available && s.remaining_capacity === 0)).toBe(true);
    const narrow = await hub.api.get('/v1/reservations/availability?date=2026-11-09&from=13:00&to=14:00&slot_interval=20');
    expect(narrow.body.slot_interval_minutes).toBe(20);
    expect(narrow.body.slots.map((s: any) => s.time)).toEqual(['13:00', '13:20']);
    const late = await hub.api.get('/v1/reservations/availability?date=2026-11-04');
    expect(late.body).toMatchObject({ closed: true, open: false, slots: [] });
    const tail = await hub.api.get('/v1/reservations/availability?date=2026-11-03&from=23:00');
    expect(tail.body.slots.map((s: any) => s.time)).toEqual(['23:00', '23:30']);
  });

  it('offers the last seating the venue sets: by default a sitting ends by closing', async () => {
    const last = async () => (await hub.api.get('/v1/reservations/availability?date=2026-11-09')).body.slots.at(-1).time;
    expect((await hub.api.get('/v1/settings')).body.last_seating_before_close_minutes).toBeNull();
    expect(await last()).toBe('13:30');
    expect((await hub.api.patch('/v1/settings', { last_seating_before_close_minutes: 45 })).status).toBe(200);
    expect(await last()).toBe('14:00');
    await hub.api.patch('/v1/settings', { last_seating_before_close_minutes: 0 });
    expect(await last()).toBe('14:30');
    expect((await hub.api.patch('/v1/settings', { last_seating_before_close_minutes: -5 })).status).toBe(400);
    await hub.api.patch('/v1/settings', { last_seating_before_close_minutes: null });
    expect(await last()).toBe('13:30');
  });

  it('answers closed days and closed dates as closed', async () => {
    for (const date of ['2026-11-08', '2026-11-10']) {
      const r = await hub.api.get(`/v1/reservations/availability?date=${date}`);
      expect(r.body).toMatchObject({ open: false, closed: true, slots: [] });
    }
  });

  it('reflects every change at once: bookings, tables, settings and the clock', async () => {
    const url = '/v1/reservations/availability?date=2026-11-16&from=12:00&to=12:00';
    const slot = async () => (await hub.api.get(url)).body.slots[0];
    expect(await slot()).toMatchObject({ available: true, remaining_capacity: 2, total_reservations: 0 });
    expect(await slot()).toMatchObject({ remaining_capacity: 2 }); // answered again from the same data
    const r = await hub.api.post('/v1/reservations', { guest_name: 'Cache', party_size: 2, date: '2026-11-16', time: '12:00' });
    expect(r.status).toBe(201);
    expect(await slot()).toMatchObject({ available: false, remaining_capacity: 0, total_reservations: 1 });
    const extra = await hub.api.post('/v1/tables', { number: 30, capacity: 2 });
    expect(await slot()).toMatchObject({ available: true, remaining_capacity: 2, total_reservations: 1 });
    await hub.api.delete(`/v1/tables/${extra.body.id}`);
    await hub.api.post(`/v1/reservations/${r.body.id}/cancel`);
    expect(await slot()).toMatchObject({ available: true, remaining_capacity: 2, total_reservations: 0 });
    await hub.api.patch('/v1/settings', { closed_dates: ['2026-11-10', '2026-11-16'] });
    expect((await hub.api.get(url)).body).toMatchObject({ closed: true, slots: [] });
    await hub.api.patch('/v1/settings', { closed_dates: ['2026-11-10'] });
    const clock = hub.clock.now();
    hub.clock.set(Date.UTC(2026, 10, 16, 11, 30));
    expect(await slot()).toMatchObject({ available: false, remaining_capacity: 2 });
    hub.clock.set(clock);
  });

  it('refuses bad parameters', async () => {
    const cases: [string, string, string][] = [
      ['', 'parameter_missing', 'date'],
      ['date=2026-02-30', 'parameter_invalid', 'date'],
      ['date=02-11-2026', 'parameter_invalid', 'date'],
      ['date=2026-11-02&party_size=0', 'parameter_invalid', 'party_size'],
      ['date=2026-11-02&party_size=10000', 'parameter_invalid', 'party_size'],
      ['date=2026-11-02&party_size=two', 'parameter_invalid', 'party_size'],
      ['date=2026-11-02&from=25:00', 'parameter_invalid', 'from'],
      ['date=2026-11-02&to=9:5', 'parameter_invalid', 'to'],
      ['date=2026-11-02&from=14:00&to=13:00', 'parameter_invalid', 'to'],
      ['date=2026-11-02&slot_interval=0', 'parameter_invalid', 'slot_interval'],
      ['date=2026-11-02&slot_interval=1000', 'parameter_invalid', 'slot_interval'],
      ['date=2026-11-02&zone=terrace', 'parameter_unknown', 'zone'],
    ];
    for (const [qs, code, param] of cases) {
      const r = await hub.api.get(`/v1/reservations/availability?${qs}`);
      expect(r.status, qs).toBe(400);
      expect(r.body.error.code, qs).toBe(code);
      expect(r.body.error.param, qs).toBe(param);
    }
  });
});
