import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../server/domain/keys/create-key.ts';
import { moveEntry } from '../../server/domain/waitlist/entries.ts';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { counts, join, nextPhone, openWaitlist } from './helpers.ts';

const WRITES = ['waitlist_entries', 'events', 'change_log', 'guest_messages'];
const MINUTE = 60_000;
const start = Date.UTC(2026, 10, 2, 12, 0, 0);

describe.each(DIALECTS)('staff waitlist on %s', (dialect) => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub(dialect);
    await openWaitlist(hub, hub.api, { notify_expiry_minutes: 15, default_wait_minutes_per_party: 10 });
  });
  afterAll(() => hub?.close());

  it('adds a walk-in, lists the queue oldest first, retrieves one', async () => {
    hub.clock.set(start);
    const online = await join(hub, { guestName: 'Online Olga' });
    hub.clock.advance(MINUTE);
    const walk = await hub.api.post('/v1/waitlist', { guest_name: 'Walk-in Wim', party_size: 12, notes: 'high chair' });
    expect(walk.status).toBe(201);
    expect(walk.body).toMatchObject({ object: 'waitlist_entry', source: 'walk_in', status: 'waiting', party_size: 12, phone: null, customer: null });
    const list = await hub.api.get('/v1/waitlist?limit=100');
    expect(list.status).toBe(200);
    expect(list.body.url).toBe('/v1/waitlist');
    const names = list.body.data.map((e: any) => e.guest_name);
    expect(names.indexOf('Online Olga')).toBeLessThan(names.indexOf('Walk-in Wim'));
    // cursor paging keeps the queue order
    const first = await hub.api.get('/v1/waitlist?limit=1');
    expect(first.body).toMatchObject({ has_more: true });
    const second = await hub.api.get(`/v1/waitlist?limit=1&starting_after=${first.body.next_cursor}`);
    expect(second.body.data[0].id).toBe(list.body.data[1].id);
    const onlineOnly = await hub.api.get('/v1/waitlist?source=online');
    expect(onlineOnly.body.data.every((e: any) => e.source === 'online')).toBe(true);
    const one = await hub.api.get(`/v1/waitlist/${walk.body.id}`);
    expect(one.body.notes).toBe('high chair');
    // the walk-in is a party ahead of anyone who joins now
    const later = await join(hub);
    expect(later.body).toMatchObject({ position: 3, partiesAhead: 2, estimatedWaitMinutes: 30 });
    void online;
  });

  it('notifies without a transport: message stored in the outbox the dashboard lists; event waitlist.notified', async () => {
    const { body } = await join(hub, { guestName: 'Nina', phone: '+49 30 77788899', email: 'nina@example.org' });
    const id = body.token.split('.')[0];
    const sms = await hub.api.post(`/v1/waitlist/${id}/notify`, { channel: 'sms' });
    expect(sms.status).toBe(200);
    expect(sms.body).toMatchObject({ status: 'notified', notified_channel: 'sms' });
    expect(sms.body.notified_at).toBe(Math.floor(hub.clock.now() / 1000));
    const again = await hub.api.post(`/v1/waitlist/${id}/notify`, { channel: 'email' });
    expect(again.body.notified_channel).toBe('email');
    const outbox = await hub.api.get('/v1/waitlist/messages');
    expect(outbox.status).toBe(200);
    const mine = outbox.body.data.filter((m: any) => m.waitlist_entry === id);
    expect(mine.map((m: any) => [m.channel, m.status, m.recipient])).toEqual([
      ['email', 'stored', 'nina@example.org'],
      ['sms', 'stored', '+493077788899'],
    ]);
    expect(mine[0].body).toContain('Test Bistro');
    const ev = await hub.api.get('/v1/events?type=waitlist.notified');
    expect(ev.body.data[0].data.object.id).toBe(id);
    expect(ev.body.data[0].data.previous_status).toBe('notified');
  });

  it('seats and removes; moves out of a final state are 409 WAITLIST_NOT_ACTIVE and write nothing', async () => {
    const a = await hub.api.post('/v1/waitlist', { guest_name: 'Seat me', party_size: 2 });
    const b = await hub.api.post('/v1/waitlist', { guest_name: 'Remove me', party_size: 2 });
    const seated = await hub.api.post(`/v1/waitlist/${a.body.id}/seat`);
    expect(seated.body).toMatchObject({ status: 'seated' });
    const removed = await hub.api.delete(`/v1/waitlist/${b.body.id}`);
    expect(removed.body).toMatchObject({ status: 'cancelled', cancelled_by: 'staff' });
    expect((await hub.api.get(`/v1/waitlist/${b.body.id}`)).status).toBe(200);
    const before = await counts(hub, WRITES);
    for (const r of [
      await hub.api.post(`/v1/waitlist/${a.body.id}/seat`),
      await hub.api.post(`/v1/waitlist/${a.body.id}/notify`, {}),
      await hub.api.delete(`/v1/waitlist/${a.body.id}`),
      await hub.api.post(`/v1/waitlist/${b.body.id}/seat`),
    ]) {
      expect(r.status).toBe(409);
      expect(r.body.error.code).toBe('WAITLIST_NOT_ACTIVE');
    }
    expect(await counts(hub, WRITES)).toEqual(before);
    const types = (await hub.api.get('/v1/events?limit=100')).body.data.map((e: any) => e.type);
    expect(types).toEqual(expect.arrayContaining(['waitlist.seated', 'waitlist.cancelled', 'waitlist.joined']));
  });

  it('refuses bad staff input, unknown and other-restaurant ids, unknown query params and missing scopes, writing nothing', async () => {
    const other = await hub.addRestaurant('rival');
    const theirs = await other.api.post('/v1/waitlist', { guest_name: 'Theirs', party_size: 2 });
    const walkIn = await hub.api.post('/v1/waitlist', { guest_name: 'No contact', party_size: 2 });
    const readOnly = await hub.server.services.tx.run((trx) =>
      createApiKey(trx, hub.clock.now(), { restaurantId: hub.restaurant.id, kind: 'secret', livemode: true, scopes: ['waitlist:read'], grantedBy: 'operator' }),
    );
    const before = await counts(hub, WRITES);
    const cases: [Promise<any>, number, string][] = [
      [hub.api.post('/v1/waitlist', { party_size: 2 }), 400, 'parameter_missing'],
      [hub.api.post('/v1/waitlist', { guest_name: '', party_size: 2 }), 400, 'parameter_invalid'],
      [hub.api.post('/v1/waitlist', { guest_name: 'x'.repeat(500), party_size: 2 }), 400, 'parameter_invalid'],
      [hub.api.post('/v1/waitlist', { guest_name: 'A', party_size: 0 }), 400, 'parameter_invalid'],
      [hub.api.post('/v1/waitlist', { guest_name: 'A', party_size: 1000.5 }), 400, 'parameter_invalid'],
      [hub.api.post('/v1/waitlist', { guest_name: 'A', party_size: 2, phone: 'call me' }), 400, 'parameter_invalid'],
      [hub.api.post('/v1/waitlist', { guest_name: 'A', party_size: 2, notes: 'n'.repeat(501) }), 400, 'parameter_invalid'],
      [hub.api.post(`/v1/waitlist/${walkIn.body.id}/notify`, { channel: 'sms' }), 400, 'parameter_invalid'],
      [hub.api.post(`/v1/waitlist/${walkIn.body.id}/notify`, { channel: 'pigeon' }), 400, 'parameter_invalid'],
      [hub.api.post(`/v1/waitlist/${theirs.body.id}/seat`), 404, 'resource_missing'],
      [hub.api.post(`/v1/waitlist/${theirs.body.id}/notify`, {}), 404, 'resource_missing'],
      [hub.api.delete(`/v1/waitlist/${theirs.body.id}`), 404, 'resource_missing'],
      [hub.api.get(`/v1/waitlist/${theirs.body.id}`), 404, 'resource_missing'],
      [hub.api.get('/v1/waitlist/wl_nope'), 404, 'resource_missing'],
      [hub.api.get('/v1/waitlist?colour=red'), 400, 'parameter_unknown'],
      [hub.api.get('/v1/waitlist?status=gone'), 400, 'parameter_invalid'],
      [hub.api.get('/v1/waitlist?limit=0'), 400, 'parameter_invalid'],
      [hub.api.get('/v1/waitlist/messages?x=1'), 400, 'parameter_unknown'],
      [hub.api.withKey(readOnly.key).post('/v1/waitlist', { guest_name: 'A', party_size: 2 }), 403, 'insufficient_scope'],
      [hub.api.withKey(null).get('/v1/waitlist'), 401, 'api_key_missing'],
    ];
    for (const [p, status, code] of cases) {
      const r = await p;
      expect(r.status, JSON.stringify(r.body)).toBe(status);
      expect(r.body.error.code).toBe(code);
    }
    expect(await counts(hub, WRITES)).toEqual(before);
    const list = await hub.api.get('/v1/waitlist?limit=100');
    expect(list.body.data.some((e: any) => e.id === theirs.body.id)).toBe(false);
  });

  it('expires notified parties that do not come back within notify_expiry_minutes (scheduled job)', async () => {
    hub.clock.set(start + 10 * MINUTE);
    const { body } = await join(hub);
    const id = body.token.split('.')[0];
    await hub.api.post(`/v1/waitlist/${id}/notify`, {});
    hub.clock.advance(14 * MINUTE);
    await hub.server.scheduler.runNow('waitlist-expiry');
    expect((await hub.api.get(`/v1/waitlist/${id}`)).body.status).toBe('notified');
    hub.clock.advance(MINUTE);
    await hub.server.scheduler.runNow('waitlist-expiry');
    const expired = await hub.api.get(`/v1/waitlist/${id}`);
    expect(expired.body).toMatchObject({ status: 'expired', expired_at: Math.floor(hub.clock.now() / 1000) });
    expect((await hub.api.get(`/public/waitlist/${body.token}`, { key: null })).body).toMatchObject({ status: 'expired', position: null });
    const ev = await hub.api.get('/v1/events?type=waitlist.expired');
    expect(ev.body.data[0].data.object.id).toBe(id);
    const log = await hub.server.services.db.selectFrom('change_log').select('op').where('row_id', '=', id).execute();
    expect(log.length).toBeGreaterThanOrEqual(3);
  });

  it('an expiry read before a re-notify does not act on it: the party keeps its new 15 minutes', async () => {
    const { body } = await join(hub);
    const id = body.token.split('.')[0];
    await hub.api.post(`/v1/waitlist/${id}/notify`, {});
    hub.clock.advance(16 * MINUTE);
    // the expiry job has read the entry as overdue; staff call the party again before it moves
    const read = await hub.server.services.db.selectFrom('waitlist_entries').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect((await hub.api.post(`/v1/waitlist/${id}/notify`, {})).status).toBe(200);
    const actor = { restaurantId: hub.restaurant.id, livemode: true, now: hub.clock.now() };
    await expect(hub.server.services.tx.run((trx) => moveEntry(trx, hub.server.services.registry.hooks, actor, read, 'expired'))).rejects.toMatchObject({ code: 'WAITLIST_NOT_ACTIVE' });
    expect((await hub.api.get(`/v1/waitlist/${id}`)).body.status).toBe('notified');
  });
});

describe.each(DIALECTS)('wait estimate on %s', (dialect) => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub(dialect);
    await openWaitlist(hub, hub.api, { default_wait_minutes_per_party: 10 });
  });
  afterAll(() => hub?.close());

  it('uses the default per party until there is a pace, then the recent seating pace; never negative', async () => {
    hub.clock.set(start);
    const seatNow = async () => {
      const e = await hub.api.post('/v1/waitlist', { guest_name: 'Pace', party_size: 2 });
      await hub.api.post(`/v1/waitlist/${e.body.id}/seat`);
    };
    const a = await join(hub);
    expect(a.body.estimatedWaitMinutes).toBe(10);
    // three seatings 6 minutes apart: pace 6 min/party
    await seatNow();
    hub.clock.advance(6 * MINUTE);
    await seatNow();
    hub.clock.advance(6 * MINUTE);
    await seatNow();
    const page = await hub.api.get(`/public/restaurants/${hub.restaurant.slug}/waitlist`, { key: null });
    // one party waiting: 2 × 6 − 0 minutes since the last seating
    expect(page.body).toMatchObject({ waitingParties: 1, estimatedWaitMinutes: 12 });
    hub.clock.advance(2 * MINUTE);
    expect((await hub.api.get(`/public/waitlist/${a.body.token}`, { key: null })).body.estimatedWaitMinutes).toBe(4);
    // long after the last seating the elapsed credit is capped at one pace, and the result is never negative
    hub.clock.advance(60 * MINUTE);
    const late = await hub.api.get(`/public/waitlist/${a.body.token}`, { key: null });
    expect(late.body.estimatedWaitMinutes).toBe(0);
    const b = await join(hub, { phone: nextPhone() });
    expect(b.body).toMatchObject({ partiesAhead: 1, estimatedWaitMinutes: 6 });
    // seatings older than three hours no longer count: back to the default
    hub.clock.advance(3 * 60 * MINUTE);
    hub.clock.set(start + 7 * 24 * 60 * MINUTE); // next Monday lunch, open again
    expect((await hub.api.get(`/public/waitlist/${b.body.token}`, { key: null })).body.estimatedWaitMinutes).toBe(20);
  });
});
