import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import { countRows, startHub, type TestHub } from '../helpers/server.ts';
import { EVERY_DAY_NOON_TO_ELEVEN } from './helpers.ts';

describe.each(DIALECTS)('booking the last table in parallel on %s', (dialect) => {
  let hub: TestHub;
  let table: string;
  beforeAll(async () => {
    hub = await startHub(dialect);
    await hub.api.patch('/v1/settings', { timezone: 'Europe/Berlin', opening_hours: EVERY_DAY_NOON_TO_ELEVEN });
    table = (await hub.api.post('/v1/tables', { number: 1, capacity: 4 })).body.id;
  });
  afterAll(() => hub?.close());

  it('lets exactly one of many simultaneous requests have it', async () => {
    const attempts = Array.from({ length: 12 }, (_, i) =>
      hub.api.post('/v1/reservations', { guest_name: `Guest ${i}`, party_size: 2, date: '2026-11-10', time: '19:00' }),
    );
    const results = await Promise.all(attempts);
    const won = results.filter((r) => r.status === 201);
    const lost = results.filter((r) => r.status === 409);
    expect(won).toHaveLength(1);
    expect(won[0].body.table).toBe(table);
    expect(lost).toHaveLength(11);
    expect(lost.every((r) => r.body.error.code === 'table_unavailable')).toBe(true);
    expect(await countRows(hub, 'reservations')).toBe(1);
  });

  it('lets exactly one of many simultaneous moves onto a free slot win', async () => {
    const guests = [];
    for (const time of ['12:00', '14:00', '16:00', '18:00']) {
      guests.push((await hub.api.post('/v1/reservations', { guest_name: time, party_size: 2, date: '2026-11-12', time })).body.id);
    }
    const results = await Promise.all(guests.slice(1).map((id) => hub.api.patch(`/v1/reservations/${id}`, { time: '20:30' })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409 && r.body.error.code === 'table_unavailable')).toHaveLength(2);
    const list = await hub.api.get('/v1/reservations?date=2026-11-12');
    expect(list.body.data.filter((r: any) => r.time === '20:30')).toHaveLength(1);
  });
});
