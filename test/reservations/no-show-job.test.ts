import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_SHOW_JOB } from '../../server/features/reservations.ts';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { eventsOf, EVERY_DAY_NOON_TO_ELEVEN } from './helpers.ts';

describe.each(DIALECTS)('no-show job on %s', (dialect) => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub(dialect);
    await hub.api.patch('/v1/settings', { timezone: 'Europe/Berlin', opening_hours: EVERY_DAY_NOON_TO_ELEVEN });
    for (const n of [1, 2, 3, 4, 5]) await hub.api.post('/v1/tables', { number: n, capacity: 4 });
  });
  afterAll(() => hub?.close());

  it('marks open reservations an hour past their time, and nothing else', async () => {
    const book = (time: string, extra: object = {}) =>
      hub.api.post('/v1/reservations', { guest_name: time, party_size: 2, date: '2026-11-03', time, ...extra });
    const late = await book('18:00');
    const sandbox = await hub.api.withKey(hub.keys.sandbox).post('/v1/reservations', { guest_name: 's', party_size: 2, date: '2026-11-03', time: '18:30' });
    const recent = await book('19:00');
    const arrived = await book('18:15');
    hub.clock.set(Date.UTC(2026, 10, 3, 17, 14)); // 18:14 Berlin
    await hub.api.patch(`/v1/reservations/${arrived.body.id}/status`, { status: 'arrived' });
    hub.clock.set(Date.UTC(2026, 10, 3, 18, 45)); // 19:45 Berlin
    await hub.server.scheduler.runNow(NO_SHOW_JOB);
    const status = async (id: string, api = hub.api) => (await api.get(`/v1/reservations/${id}`)).body.status;
    expect(await status(late.body.id)).toBe('no_show');
    // the sweep works in each reservation's own mode; only a sandbox key sees the sandbox one
    expect(await status(sandbox.body.id, hub.api.withKey(hub.keys.sandbox))).toBe('no_show');
    expect(await status(recent.body.id)).toBe('confirmed'); // 45 minutes late: not yet
    expect(await status(arrived.body.id)).toBe('arrived');
    hub.clock.set(Date.UTC(2026, 10, 3, 19, 0)); // 20:00 Berlin
    await hub.server.scheduler.runNow(NO_SHOW_JOB);
    expect(await status(recent.body.id)).toBe('no_show');
    const events = await eventsOf(hub, 'reservation.no_show');
    expect(events).toHaveLength(3);
    const byId = new Map(events.map((e) => [e.data.object.id, e.data.object]));
    expect(byId.get(late.body.id)).toMatchObject({ status: 'no_show', livemode: true });
    expect(byId.get(sandbox.body.id)).toMatchObject({ status: 'no_show', livemode: false });
  });
});
