import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import { countRows, startHub, type TestHub } from '../helpers/server.ts';
import { changesOf, eventsOf, EVERY_DAY_NOON_TO_ELEVEN } from './helpers.ts';

// The hub's clock starts at 2026-11-02 12:00 UTC (Monday, 13:00 in Berlin).
const DAY = '2026-11-05';

describe.each(DIALECTS)('reservations on %s', (dialect) => {
  let hub: TestHub;
  const t: Record<string, string> = {};
  beforeAll(async () => {
    hub = await startHub(dialect);
    await hub.api.patch('/v1/settings', {
      timezone: 'Europe/Berlin',
      opening_hours: EVERY_DAY_NOON_TO_ELEVEN,
      closed_dates: ['2026-11-11'],
      reservation_buffer_minutes: 15,
      auto_confirm_max_party_size: 4,
    });
    for (const [n, capacity, min] of [[1, 2, 1], [2, 4, 3], [3, 6, 3]]) {
      t[n] = (await hub.api.post('/v1/tables', { number: n, capacity, min_capacity: min })).body.id;
    }
  });
  afterAll(() => hub?.close());

  const book = (body: Record<string, unknown>, opts?: any) =>
    hub.api.post('/v1/reservations', { guest_name: 'Ada Lovelace', party_size: 2, date: DAY, time: '19:00', ...body }, opts);

  it('creates a reservation on the smallest free table, confirmed, linked to a customer, with its event', async () => {
    const r = await book({ guest_email: 'Ada@Example.com', guest_phone: '030 1234567', tags: ['birthday'], special_requests: 'window' });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      object: 'reservation',
      guest: { name: 'Ada Lovelace', email: 'ada@example.com', phone: '+49301234567' },
      party_size: 2,
      date: DAY,
      time: '19:00',
      duration_minutes: 90,
      table: t[1],
      status: 'confirmed',
      arrived_at: null,
      seated_at: null,
      completed_at: null,
      source: 'api',
      notes: null,
      special_requests: 'window',
      tags: ['birthday'],
    });
    expect(r.body.id).toMatch(/^rsv_/);
    expect(r.body.customer).toMatch(/^cus_/);
    expect(r.body.starts_at).toBe(Date.UTC(2026, 10, 5, 18, 0) / 1000);
    expect(r.body.ends_at - r.body.starts_at).toBe(90 * 60);
    expect(r.body.no_show_risk).toBeGreaterThanOrEqual(0);
    expect(r.body.no_show_risk).toBeLessThanOrEqual(100);
    const ev = (await eventsOf(hub, 'reservation.created')).find((e) => e.data.object.id === r.body.id);
    expect(ev?.data.object).toEqual(r.body);

    const again = await book({ guest_name: 'Ada L.', guest_email: 'ada@example.com', time: '12:00' });
    expect(again.body.customer).toBe(r.body.customer);
  });

  it('replays an Idempotency-Key and refuses it with another body', async () => {
    const headers = { 'Idempotency-Key': `rsv-${dialect}` };
    const before = await countRows(hub, 'reservations');
    const a = await book({ time: '16:00' }, { headers });
    const b = await book({ time: '16:00' }, { headers });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    expect(b.body.id).toBe(a.body.id);
    expect(await countRows(hub, 'reservations')).toBe(before + 1);
    expect((await book({ time: '16:30' }, { headers })).status).toBe(422);
  });

  it('applies the creation status rule and parks a party no table fits without a table', async () => {
    const big = await book({ party_size: 6, time: '20:00' });
    expect(big.body).toMatchObject({ table: t[3], status: 'pending' });
    const huge = await book({ party_size: 12, time: '20:00' });
    expect(huge.status).toBe(201);
    expect(huge.body).toMatchObject({ table: null, status: 'pending' });
    const three = await book({ party_size: 3, time: '20:00' });
    expect(three.body).toMatchObject({ table: t[2], status: 'confirmed' });
  });

  it('checks a named table and the buffer; refuses busy tables with 409, writing nothing', async () => {
    const first = await book({ time: '15:00', table: t[2], party_size: 3 });
    expect(first.status).toBe(201);
    const before = { r: await countRows(hub, 'reservations'), log: await changesOf(hub) };
    // 16:30 would leave no buffer after the 15:00–16:30 sitting
    for (const body of [{ time: '16:30', table: t[2], party_size: 3 }, { time: '14:00', table: t[2], party_size: 4 }, { time: '15:00', table: t[1], party_size: 3 }]) {
      const r = await book(body);
      expect(r.status, JSON.stringify(body)).toBe(409);
      expect(r.body.error.code).toBe('table_unavailable');
      expect(r.body.error.param).toBe('table');
    }
    expect((await book({ time: '16:45', table: t[2], party_size: 3 })).status).toBe(201);
    expect(await countRows(hub, 'reservations')).toBe(before.r + 1);
    expect(await changesOf(hub)).toBeGreaterThan(before.log);
  });

  it('refuses bad input with a clear 4xx and writes nothing', async () => {
    const other = await hub.addRestaurant(`other-${dialect}`);
    const foreignTable = (await other.api.post('/v1/tables', { number: 1, capacity: 4 })).body.id;
    const inactive = (await hub.api.post('/v1/tables', { number: 9, capacity: 4, is_active: false })).body.id;
    const before = { r: await countRows(hub, 'reservations'), c: await countRows(hub, 'customers'), log: await changesOf(hub) };
    const cases: [Record<string, unknown>, number, string, string | null][] = [
      [{ guest_name: undefined }, 400, 'parameter_missing', 'guest_name'],
      [{ party_size: undefined }, 400, 'parameter_missing', 'party_size'],
      [{ date: undefined }, 400, 'parameter_missing', 'date'],
      [{ time: undefined }, 400, 'parameter_missing', 'time'],
      [{ guest_name: '' }, 400, 'parameter_invalid', 'guest_name'],
      [{ guest_name: 'x'.repeat(201) }, 400, 'parameter_invalid', 'guest_name'],
      [{ party_size: 0 }, 400, 'parameter_invalid', 'party_size'],
      [{ party_size: 10_000 }, 400, 'parameter_invalid', 'party_size'],
      [{ party_size: '2' }, 400, 'parameter_invalid', 'party_size'],
      [{ party_size: 2.5 }, 400, 'parameter_invalid', 'party_size'],
      [{ date: '2026-02-30' }, 400, 'parameter_invalid', 'date'],
      [{ date: '5.11.2026' }, 400, 'parameter_invalid', 'date'],
      [{ time: '25:00' }, 400, 'parameter_invalid', 'time'],
      [{ time: '9:5' }, 400, 'parameter_invalid', 'time'],
      [{ duration_minutes: 0 }, 400, 'parameter_invalid', 'duration_minutes'],
      [{ duration_minutes: 2 * 24 * 60 }, 400, 'parameter_invalid', 'duration_minutes'],
      [{ guest_email: 'not-an-email' }, 400, 'parameter_invalid', 'guest_email'],
      [{ guest_phone: 'call me' }, 400, 'parameter_invalid', 'guest_phone'],
      // digits that are no real number would otherwise make strangers one customer
      [{ guest_phone: 'call me 12345' }, 400, 'parameter_invalid', 'guest_phone'],
      [{ guest_phone: '12345' }, 400, 'parameter_invalid', 'guest_phone'],
      [{ guest_phone: '+1 555' }, 400, 'parameter_invalid', 'guest_phone'],
      [{ notes: 'x'.repeat(2001) }, 400, 'parameter_invalid', 'notes'],
      [{ tags: 'vip' }, 400, 'parameter_invalid', 'tags'],
      [{ date: '2026-11-11' }, 400, 'restaurant_closed', 'date'],
      [{ time: '11:00' }, 400, 'restaurant_closed', 'time'],
      [{ time: '23:00' }, 400, 'restaurant_closed', 'time'],
      [{ date: '2026-11-01' }, 400, 'parameter_invalid', 'time'],
      [{ date: '2028-01-05' }, 400, 'parameter_invalid', 'date'],
      [{ table: foreignTable }, 404, 'resource_missing', 'table'],
      [{ table: 'tbl_nope' }, 404, 'resource_missing', 'table'],
      [{ table: inactive }, 409, 'table_unavailable', 'table'],
      [{ table: t[3], party_size: 2 }, 409, 'table_unavailable', 'table'],
    ];
    for (const [body, status, code, param] of cases) {
      const r = await book(body);
      expect(r.status, JSON.stringify(body)).toBe(status);
      expect(r.body.error.code, JSON.stringify(body)).toBe(code);
      expect(r.body.error.param, JSON.stringify(body)).toBe(param);
    }
    expect((await hub.api.post('/v1/reservations', [1, 2])).status).toBe(400);
    expect(await countRows(hub, 'reservations')).toBe(before.r);
    expect(await countRows(hub, 'customers')).toBe(before.c);
    expect(await changesOf(hub)).toBe(before.log);
  });

  it('retrieves and lists with filters, cursors and expand=table', async () => {
    const r = await book({ time: '21:00', date: '2026-11-06' });
    const got = await hub.api.get(`/v1/reservations/${r.body.id}?expand[]=table`);
    expect(got.body.table).toMatchObject({ id: t[1], object: 'table', number: 1 });
    expect((await hub.api.get(`/v1/reservations/${r.body.id}`)).body).toEqual(r.body);

    const byDate = await hub.api.get('/v1/reservations?date=2026-11-06&expand=table');
    expect(byDate.body.data.map((x: any) => x.id)).toEqual([r.body.id]);
    expect(byDate.body.data[0].table.capacity).toBe(2);
    const from = r.body.starts_at;
    const ranged = await hub.api.get(`/v1/reservations?date.gte=${from}&date.lte=${from}`);
    expect(ranged.body.data.map((x: any) => x.id)).toEqual([r.body.id]);
    const later = await hub.api.get(`/v1/reservations?date.gte=${from + 1}`);
    expect(later.body.data).toEqual([]);
    const pending = await hub.api.get('/v1/reservations?status=pending&limit=100');
    expect(pending.body.data.length).toBeGreaterThan(0);
    expect(pending.body.data.every((x: any) => x.status === 'pending')).toBe(true);

    const p1 = await hub.api.get('/v1/reservations?limit=2');
    expect(p1.body).toMatchObject({ object: 'list', has_more: true, url: '/v1/reservations' });
    const p2 = await hub.api.get(`/v1/reservations?limit=2&starting_after=${p1.body.next_cursor}`);
    expect(p2.body.data[0].id < p1.body.data[1].id).toBe(true);

    for (const qs of ['status=done', 'date=2026-13-01', 'date.gte=yesterday', 'limit=101', 'limit=0', 'expand=customer', 'sort=asc', `date.gte=${from + 10}&date.lte=${from}`]) {
      expect((await hub.api.get(`/v1/reservations?${qs}`)).status, qs).toBe(400);
    }
    const other = await hub.addRestaurant(`lister-${dialect}`);
    expect((await other.api.get(`/v1/reservations/${r.body.id}`)).status).toBe(404);
    expect((await other.api.get('/v1/reservations')).body.data).toEqual([]);
    expect((await hub.api.get('/v1/reservations/rsv_unknown')).status).toBe(404);
    expect((await hub.api.get(`/v1/reservations/${r.body.id}?include=all`)).body.error.code).toBe('parameter_unknown');
    expect((await hub.api.post('/v1/reservations/rsv_unknown/cancel')).status).toBe(404);
  });

  it('re-checks time, size and table on update and recomputes the risk', async () => {
    const r = await book({ time: '12:30', date: '2026-11-07' });
    expect(r.body.table).toBe(t[1]);
    const blocker = await book({ time: '15:00', date: '2026-11-07', party_size: 3 });
    expect(blocker.body.table).toBe(t[2]);

    const moved = await hub.api.patch(`/v1/reservations/${r.body.id}`, { time: '14:00', party_size: 3, notes: 'moved' });
    expect(moved.status).toBe(200);
    // table 1 no longer fits; 2 is busy from 15:00 (14:00 + 90 min + 15 buffer), so 3
    expect(moved.body).toMatchObject({ time: '14:00', party_size: 3, table: t[3], notes: 'moved', status: 'confirmed' });
    expect(moved.body.starts_at).toBe(r.body.starts_at + 90 * 60);
    const ev = (await eventsOf(hub, 'reservation.updated')).at(-1);
    expect(ev?.data.object).toEqual(moved.body);

    const before = { log: await changesOf(hub), ev: (await eventsOf(hub, 'reservation.updated')).length };
    const bad: [Record<string, unknown>, number, string][] = [
      [{ table: t[2] }, 409, 'table_unavailable'],
      [{ time: '23:30' }, 400, 'restaurant_closed'],
      [{ date: '2026-02-30' }, 400, 'parameter_invalid'],
      [{ party_size: 0 }, 400, 'parameter_invalid'],
      [{ duration_minutes: 0 }, 400, 'parameter_invalid'],
      [{ status: 'seated' }, 400, 'parameter_invalid'],
      [{ guest_email: 'nope' }, 400, 'parameter_invalid'],
      [{ notes: 'x'.repeat(2001) }, 400, 'parameter_invalid'],
      [{ guest_name: '' }, 400, 'parameter_invalid'],
      [{ table: 'tbl_unknown' }, 404, 'resource_missing'],
    ];
    for (const [body, status, code] of bad) {
      const res = await hub.api.patch(`/v1/reservations/${r.body.id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.error.code).toBe(code);
    }
    expect((await hub.api.patch('/v1/reservations/rsv_nope', { notes: 'x' })).status).toBe(404);
    const other = await hub.addRestaurant(`mover-${dialect}`);
    const foreign = (await other.api.post('/v1/tables', { number: 7, capacity: 6 })).body.id;
    const stolen = await hub.api.patch(`/v1/reservations/${r.body.id}`, { table: foreign });
    expect(stolen.status).toBe(404);
    expect(stolen.body.error).toMatchObject({ code: 'resource_missing', param: 'table' });
    expect((await other.api.patch(`/v1/reservations/${r.body.id}`, { notes: 'mine now' })).status).toBe(404);
    expect((await other.api.post(`/v1/reservations/${r.body.id}/cancel`)).status).toBe(404);
    expect((await other.api.patch(`/v1/reservations/${r.body.id}/status`, { status: 'cancelled' })).status).toBe(404);
    expect(await changesOf(hub)).toBe(before.log);
    expect((await eventsOf(hub, 'reservation.updated')).length).toBe(before.ev);

    // no contact details raise the risk; adding both lowers it again
    const bare = await book({ time: '18:00', date: '2026-11-07' });
    const withContact = await hub.api.patch(`/v1/reservations/${bare.body.id}`, { guest_email: 'g@example.com', guest_phone: '+49 30 7654321' });
    expect(withContact.body.no_show_risk).toBe(bare.body.no_show_risk - 20);
    expect(withContact.body.customer).toMatch(/^cus_/);
  });

  it('walks the lifecycle, stamping times and emitting events; refuses impossible moves', async () => {
    const r = await book({ time: '14:00', date: '2026-11-02' });
    const move = (status: string) => hub.api.patch(`/v1/reservations/${r.body.id}/status`, { status });
    const early = await move('no_show');
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe('invalid_transition');

    hub.clock.advance(60 * 60 * 1000); // 14:00 Berlin
    const arrived = await move('arrived');
    expect(arrived.body).toMatchObject({ status: 'arrived', arrived_at: Math.floor(hub.clock.now() / 1000) });
    const wrong = await move('completed');
    expect(wrong.status).toBe(409);
    expect(wrong.body.error).toMatchObject({ code: 'invalid_transition', param: 'status' });
    expect(wrong.body.error.message).toContain('arrived');
    expect((await move('no_show')).status).toBe(409); // not from arrived
    hub.clock.advance(60_000);
    expect((await move('seated')).body.seated_at).toBe(Math.floor(hub.clock.now() / 1000));
    hub.clock.advance(60_000);
    const done = await move('completed');
    expect(done.body).toMatchObject({ status: 'completed', completed_at: Math.floor(hub.clock.now() / 1000) });
    const events = (await eventsOf(hub, 'reservation.updated')).filter((e) => e.data.object.id === r.body.id);
    expect(events.map((e) => e.data.object.status)).toEqual(['arrived', 'seated', 'completed']);

    const log = await changesOf(hub);
    for (const s of ['cancelled', 'pending', 'confirmed', 'no_show', 'arrived']) {
      const res = await move(s);
      expect(res.status, s).toBe(409);
      expect(res.body.error.message).toContain('completed');
    }
    expect((await hub.api.post(`/v1/reservations/${r.body.id}/cancel`)).status).toBe(409);
    expect((await move('finished')).status).toBe(400);
    expect((await hub.api.patch(`/v1/reservations/${r.body.id}/status`, {})).body.error.code).toBe('parameter_missing');
    expect((await hub.api.patch(`/v1/reservations/${r.body.id}`, { time: '15:00' })).status).toBe(409);
    expect((await hub.api.patch('/v1/reservations/rsv_nope/status', { status: 'confirmed' })).status).toBe(404);
    expect(await changesOf(hub)).toBe(log);
  });

  it('cancels idempotently and marks no-shows once the time has passed', async () => {
    const r = await book({ time: '20:00', date: '2026-11-03', party_size: 6 });
    expect(r.body.status).toBe('pending');
    const c1 = await hub.api.post(`/v1/reservations/${r.body.id}/cancel`);
    expect(c1.status).toBe(200);
    expect(c1.body).toMatchObject({ status: 'cancelled', cancelled_at: Math.floor(hub.clock.now() / 1000) });
    const c2 = await hub.api.post(`/v1/reservations/${r.body.id}/cancel`);
    expect(c2.body).toEqual(c1.body);
    const cancels = (await eventsOf(hub, 'reservation.cancelled')).filter((e) => e.data.object.id === r.body.id);
    expect(cancels).toHaveLength(1);
    expect(cancels[0].data.object).toEqual(c1.body);
    // the freed table can be booked again
    expect((await book({ time: '20:00', date: '2026-11-03', party_size: 6, table: t[3] })).status).toBe(201);

    const ns = await book({ time: '12:00', date: '2026-11-04', guest_phone: '+49 170 5550000' });
    hub.clock.set(Date.UTC(2026, 10, 4, 11, 30));
    const marked = await hub.api.patch(`/v1/reservations/${ns.body.id}/status`, { status: 'no_show' });
    expect(marked.body.status).toBe('no_show');
    expect((await eventsOf(hub, 'reservation.no_show')).at(-1)?.data.object).toEqual(marked.body);
    // the guest's next booking carries the earlier no-show
    const next = await book({ time: '19:00', date: '2026-11-04', guest_phone: '+491705550000' });
    // +25 for the no-show; the shorter lead time (7.5 h instead of 48 h) takes 3 off
    expect(next.body.no_show_risk).toBe(ns.body.no_show_risk + 25 - 3);
    expect(next.body.customer).toBe(ns.body.customer);
  });
});
