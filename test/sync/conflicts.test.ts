import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newId, PREFIXES } from '../../server/ids.ts';
import { applyChanges } from '../../sync/apply.ts';
import { toWire } from '../../sync/changes.ts';
import { expectError } from '../helpers/assert.ts';
import { DIALECTS } from '../helpers/db.ts';
import { countRows, startHub, type TestHub } from '../helpers/server.ts';
import { EVERY_DAY_NOON_TO_ELEVEN } from '../reservations/helpers.ts';
import { seedMenu } from '../orders/fixtures.ts';
import { until } from '../helpers/until.ts';
import { converged, goOffline, goOnline, startPair, type Pair } from './helpers.ts';

/**
 * Settling a sync conflict (POST /v1/sync/conflicts/{id}/resolve) on one node, and double
 * bookings that settle themselves once their bookings no longer clash. The conflicts are made
 * as sync makes them: another node's booking applied through the sync apply path.
 */
describe.each(DIALECTS)('sync conflicts settled by a person (%s)', (dialect) => {
  let hub: TestHub;
  let table: string;
  const date = '2026-12-03';
  let seq = 0;
  beforeAll(async () => {
    hub = await startHub(dialect);
    expect((await hub.api.patch('/v1/settings', { opening_hours: EVERY_DAY_NOON_TO_ELEVEN })).status).toBe(200);
    table = (await hub.api.post('/v1/tables', { number: 7, capacity: 4 })).body.id;
  });
  afterAll(() => hub.close());

  /** A booking here, and the same table at the same time booked by the other node: a double booking. */
  async function doubleBooking(time: string, api = hub.api, restaurantId = hub.restaurant.id, tableId = table) {
    const here = await api.post('/v1/reservations', { guest_name: 'Hub Guest', party_size: 2, date, time, table: tableId });
    expect(here.status, JSON.stringify(here.body)).toBe(201);
    const db = hub.server.services.db;
    const logged = await db.selectFrom('change_log').selectAll().where('table_name', '=', 'reservations').where('row_id', '=', here.body.id).orderBy('seq').limit(1).executeTakeFirstOrThrow();
    const wire = toWire(logged);
    const id = newId(PREFIXES.reservation);
    const fromCloud = { ...wire, op_id: newId('op'), origin: 'cloud-epoch-test', origin_seq: ++seq, row_id: id, data: { ...wire.data, id, guest_name: 'Cloud Guest' } };
    await hub.server.services.tx.run((trx) => applyChanges(trx, { restaurantId, role: 'hub', now: hub.clock.now(), hooks: hub.server.services.registry.hooks }, [fromCloud]));
    const conflicts = (await api.get('/v1/sync/status')).body.conflicts;
    const conflict = conflicts.find((c: any) => c.kind === 'double_booking' && c.row_ids.includes(id));
    expect(conflict).toMatchObject({ object: 'sync_conflict', table: 'reservations', row_ids: [here.body.id, id].sort(), resolved: null });
    return { conflict, here: here.body.id as string, there: id };
  }
  const listed = async (id: string, api = hub.api) => (await api.get('/v1/sync/status')).body.conflicts.some((c: any) => c.id === id);

  it('a manager settles a conflict with a note: it leaves the status at once, recorded as a replicated change; a second time is 409', async () => {
    const { conflict } = await doubleBooking('19:00');
    const logBefore = await countRows(hub, 'change_log');
    const res = await hub.api.post(`/v1/sync/conflicts/${conflict.id}/resolve`, { note: 'Moved Cloud Guest to table 8 by phone.' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const keyId = (await hub.server.services.db.selectFrom('api_keys').select('id').where('restaurant_id', '=', hub.restaurant.id).where('kind', '=', 'secret').where('livemode', '=', 1).executeTakeFirstOrThrow()).id;
    expect(res.body).toMatchObject({ ...conflict, resolved: { at: Math.floor(hub.clock.now() / 1000), by: keyId, note: 'Moved Cloud Guest to table 8 by phone.' } });
    expect(await listed(conflict.id)).toBe(false);
    // the settlement travels: one record, one change-log entry
    const rows = await hub.server.services.db.selectFrom('sync_resolutions').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ restaurant_id: hub.restaurant.id, kind: 'double_booking', row_ids: JSON.stringify(conflict.row_ids) });
    expect(await countRows(hub, 'change_log')).toBe(logBefore + 1);

    expectError(await hub.api.post(`/v1/sync/conflicts/${conflict.id}/resolve`, {}), 409, 'state_conflict');
    expect(await countRows(hub, 'sync_resolutions')).toBe(1);
  });

  it('an unknown id and another restaurant’s conflict are 404; bad bodies are 400; a server’s session and a sandbox key are refused; none writes anything', async () => {
    const { conflict } = await doubleBooking('13:00');
    const other = await hub.addRestaurant(`other-${dialect}`);
    expect((await other.api.patch('/v1/settings', { opening_hours: EVERY_DAY_NOON_TO_ELEVEN })).status).toBe(200);
    const theirTable = (await other.api.post('/v1/tables', { number: 1, capacity: 4 })).body.id;
    const theirs = await doubleBooking('19:00', other.api, other.restaurant.id, theirTable);
    const before = await countRows(hub, 'sync_resolutions');

    expectError(await hub.api.post('/v1/sync/conflicts/sconf_01JUNKNOWN0000000000000000/resolve', {}), 404, 'resource_missing', 'id');
    expectError(await hub.api.post(`/v1/sync/conflicts/${theirs.conflict.id}/resolve`, {}), 404, 'resource_missing', 'id');
    expectError(await other.api.post(`/v1/sync/conflicts/${conflict.id}/resolve`, {}), 404, 'resource_missing', 'id');
    expectError(await hub.api.post(`/v1/sync/conflicts/${conflict.id}/resolve`, { note: 'x'.repeat(501) }), 400, 'parameter_invalid', 'note');
    expectError(await hub.api.post(`/v1/sync/conflicts/${conflict.id}/resolve`, { note: 42 }), 400, 'parameter_invalid', 'note');
    expectError(await hub.api.withKey(hub.keys.sandbox).post(`/v1/sync/conflicts/${conflict.id}/resolve`, {}), 403, 'key_type_not_allowed');

    // a server signs in to the back office: it may read the status, not settle a conflict
    const staff = await hub.api.post('/v1/staff', { name: 'Sam Server', email: `sam-${dialect}@example.com`, role: 'server' });
    expect((await hub.api.post(`/v1/staff/${staff.body.id}/password`, { password: 'a very good password' })).status).toBeLessThan(300);
    const login = await fetch(`${hub.url}/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `sam-${dialect}@example.com`, password: 'a very good password' }),
    });
    expect(login.status).toBe(200);
    const cookies = Object.fromEntries(login.headers.getSetCookie().map((c) => c.split(';')[0].split('=') as [string, string]));
    const asServer = (method: string, path: string, body?: unknown) =>
      fetch(hub.url + path, {
        method,
        headers: { cookie: `comanda_session=${cookies.comanda_session}; comanda_csrf=${cookies.comanda_csrf}`, 'x-csrf-token': cookies.comanda_csrf, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }).then(async (r) => ({ status: r.status, body: await r.json(), headers: r.headers }));
    expect((await asServer('GET', '/v1/sync/status')).status).toBe(200);
    expectError(await asServer('POST', `/v1/sync/conflicts/${conflict.id}/resolve`, { note: 'mine' }), 403, 'insufficient_scope');

    expect(await countRows(hub, 'sync_resolutions')).toBe(before);
    expect(await listed(conflict.id)).toBe(true);
    expect(await listed(theirs.conflict.id, other.api)).toBe(true);

    // the same conflict settled by its own restaurant's manager, without a note
    const settled = await other.api.post(`/v1/sync/conflicts/${theirs.conflict.id}/resolve`, {});
    expect(settled.status).toBe(200);
    expect(settled.body.resolved).toMatchObject({ note: null });
    expect(await listed(theirs.conflict.id, other.api)).toBe(false);
    expect(await listed(conflict.id)).toBe(true);
  });

  it('a double booking whose bookings no longer clash leaves the list by itself: one moved to another time, to another table, or cancelled', async () => {
    const newTable = async (n: number) => (await hub.api.post('/v1/tables', { number: n, capacity: 4 })).body.id as string;

    const moved = await doubleBooking('12:00', hub.api, hub.restaurant.id, await newTable(11));
    expect((await hub.api.patch(`/v1/reservations/${moved.there}`, { time: '18:00' })).status).toBe(200);
    expect(await listed(moved.conflict.id)).toBe(false);

    const cancelled = await doubleBooking('12:00', hub.api, hub.restaurant.id, await newTable(12));
    expect((await hub.api.post(`/v1/reservations/${cancelled.here}/cancel`, {})).status).toBe(200);
    expect(await listed(cancelled.conflict.id)).toBe(false);

    const elsewhere = await doubleBooking('12:00', hub.api, hub.restaurant.id, await newTable(13));
    const still = await doubleBooking('12:00', hub.api, hub.restaurant.id, await newTable(14));
    expect((await hub.api.patch(`/v1/reservations/${elsewhere.here}`, { table: await newTable(15) })).status).toBe(200);
    expect(await listed(elsewhere.conflict.id)).toBe(false);
    // the clash nobody touched is still there, and none of them was marked settled
    expect(await listed(still.conflict.id)).toBe(true);
    expect(await hub.server.services.db.selectFrom('sync_resolutions').select('row_ids').where('row_ids', 'in', [moved, cancelled, elsewhere].map((x) => JSON.stringify(x.conflict.row_ids))).execute()).toEqual([]);
  });
});

describe('a conflict settled on one side is settled on the other (hub on SQLite, cloud on PostgreSQL)', () => {
  let p: Pair | undefined;
  afterEach(async () => {
    await p?.close();
    p = undefined;
  });

  it('the same table booked on both sides while apart, settled on the hub: gone from the cloud’s status too, the settlement in the audit', async () => {
    const pair = (p = await startPair());
    const menu = await seedMenu(pair.hub);
    await pair.hub.api.patch('/v1/settings', { timezone: 'Europe/Berlin', opening_hours: EVERY_DAY_NOON_TO_ELEVEN });
    await pair.link();
    await goOffline(pair.hub);
    const atHub = await pair.hub.api.post('/v1/reservations', { guest_name: 'Hub guest', party_size: 2, date: '2026-11-20', time: '19:00', table: menu.table });
    const atCloud = await pair.cloudApi.post('/v1/reservations', { guest_name: 'Cloud guest', party_size: 2, date: '2026-11-20', time: '19:00', table: menu.table });
    expect([atHub.status, atCloud.status]).toEqual([201, 201]);
    goOnline(pair.hub);
    expect((await converged(pair)).ok).toBe(true);

    const rowIds = [atHub.body.id, atCloud.body.id].sort();
    const doubleOn = async (api: typeof pair.hub.api) => (await api.get('/v1/sync/status')).body.conflicts.find((c: any) => c.kind === 'double_booking' && c.row_ids.join() === rowIds.join());
    const onHub = await doubleOn(pair.hub.api);
    const onCloud = await doubleOn(pair.cloudApi);
    expect(onHub).toBeTruthy();
    expect(onCloud).toBeTruthy();
    // each node found it for itself: two ids for one conflict
    expect(onHub.id).not.toBe(onCloud.id);

    const settled = await pair.hub.api.post(`/v1/sync/conflicts/${onHub.id}/resolve`, { note: 'Called the cloud guest: moved to Friday.' });
    expect(settled.status, JSON.stringify(settled.body)).toBe(200);
    expect(await doubleOn(pair.hub.api)).toBeUndefined();
    await until('the double booking settled on the cloud', async () => (await doubleOn(pair.cloudApi)) === undefined);
    // the cloud holds the settlement itself; settling it there again is refused as already done
    const res = await pair.cloudApi.post(`/v1/sync/conflicts/${onCloud.id}/resolve`, {});
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('state_conflict');
    const { ok, report } = await converged(pair);
    expect(report?.differences).toEqual([]);
    expect(ok).toBe(true);
    expect(report?.tables.find((t) => t.table === 'sync_resolutions')).toMatchObject({ rows: 1, cloud_rows: 1, in_sync: true });
  });
});
