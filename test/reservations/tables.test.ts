import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import { countRows, startHub, type TestHub } from '../helpers/server.ts';
import { changesOf } from './helpers.ts';

describe.each(DIALECTS)('tables on %s', (dialect) => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub(dialect);
  });
  afterAll(() => hub?.close());

  it('creates, retrieves, updates, lists by number and deactivates', async () => {
    const a = await hub.api.post('/v1/tables', { number: 12, capacity: 4, min_capacity: 2, zone: 'Sala' });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ object: 'table', number: 12, capacity: 4, min_capacity: 2, zone: 'Sala', is_active: true });
    expect(a.body.id).toMatch(/^tbl_/);
    const b = await hub.api.post('/v1/tables', { number: 3, capacity: 2 });
    expect(b.body).toMatchObject({ min_capacity: null, zone: null });

    expect((await hub.api.get(`/v1/tables/${a.body.id}`)).body.capacity).toBe(4);
    const upd = await hub.api.patch(`/v1/tables/${a.body.id}`, { capacity: 6, zone: null });
    expect(upd.status).toBe(200);
    expect(upd.body).toMatchObject({ capacity: 6, min_capacity: 2, zone: null });

    const page1 = await hub.api.get('/v1/tables?limit=1');
    expect(page1.body.data.map((t: any) => t.number)).toEqual([3]);
    expect(page1.body.has_more).toBe(true);
    const page2 = await hub.api.get(`/v1/tables?limit=1&starting_after=${page1.body.next_cursor}`);
    expect(page2.body.data.map((t: any) => t.number)).toEqual([12]);

    const del = await hub.api.delete(`/v1/tables/${b.body.id}`);
    expect(del.body.is_active).toBe(false);
    expect((await hub.api.get('/v1/tables')).body.data.map((t: any) => t.number)).toEqual([12]);
    expect((await hub.api.get('/v1/tables?is_active=false')).body.data.map((t: any) => t.number)).toEqual([3, 12]);
    expect((await hub.api.get('/v1/tables?zone=Sala')).body.data).toEqual([]);
  });

  it('refuses bad input with a 4xx and writes nothing', async () => {
    const t = await hub.api.post('/v1/tables', { number: 40, capacity: 4 });
    const before = await countRows(hub, 'tables');
    const logBefore = await changesOf(hub);
    const cases: [unknown, number, string, string | null][] = [
      [{ capacity: 4 }, 400, 'parameter_missing', 'number'],
      [{ number: 41 }, 400, 'parameter_missing', 'capacity'],
      [{ number: '41', capacity: 4 }, 400, 'parameter_invalid', 'number'],
      [{ number: 41, capacity: 0 }, 400, 'parameter_invalid', 'capacity'],
      [{ number: 41, capacity: 10_000 }, 400, 'parameter_invalid', 'capacity'],
      [{ number: 41, capacity: 2.5 }, 400, 'parameter_invalid', 'capacity'],
      [{ number: 41, capacity: 2, min_capacity: 3 }, 400, 'parameter_invalid', 'min_capacity'],
      [{ number: 41, capacity: 2, zone: 'x'.repeat(101) }, 400, 'parameter_invalid', 'zone'],
      [{ number: 40, capacity: 2 }, 409, 'resource_conflict', 'number'],
    ];
    for (const [body, status, code, param] of cases) {
      const r = await hub.api.post('/v1/tables', body);
      expect(r.status, JSON.stringify(body)).toBe(status);
      expect(r.body.error.code).toBe(code);
      expect(r.body.error.param).toBe(param);
    }
    const badPatch = await hub.api.patch(`/v1/tables/${t.body.id}`, { min_capacity: 5 });
    expect(badPatch.status).toBe(400);
    expect((await hub.api.patch(`/v1/tables/tbl_nope`, { capacity: 2 })).status).toBe(404);
    expect((await hub.api.get('/v1/tables?color=red')).body.error.code).toBe('parameter_unknown');
    expect((await hub.api.get('/v1/tables?is_active=maybe')).status).toBe(400);

    const other = await hub.addRestaurant('other-tables');
    expect((await other.api.get(`/v1/tables/${t.body.id}`)).status).toBe(404);
    expect((await other.api.patch(`/v1/tables/${t.body.id}`, { capacity: 8 })).status).toBe(404);
    expect((await other.api.delete(`/v1/tables/${t.body.id}`)).status).toBe(404);
    expect(await countRows(hub, 'tables')).toBe(before);
    expect(await changesOf(hub)).toBe(logBefore);
  });
});
