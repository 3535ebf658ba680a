import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getSettings } from '../../server/domain/restaurants/restaurants.ts';
import { standing } from '../../server/domain/waitlist/entries.ts';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type ApiClient, type TestHub } from '../helpers/server.ts';
import { counts, join, nextPhone, openWaitlist } from './helpers.ts';

const WRITES = ['waitlist_entries', 'events', 'change_log', 'guest_messages', 'customers'];
const MINUTE = 60_000;
const start = Date.UTC(2026, 10, 2, 12, 0, 0);

// Live and sandbox (sk_test_) waitlists are separate queues, as orders are: a key sees and
// changes its own mode's entries only, and guests only ever see the live queue.
describe.each(DIALECTS)('waitlist modes on %s', (dialect) => {
  let hub: TestHub;
  let sandbox: ApiClient;
  beforeAll(async () => {
    hub = await startHub(dialect);
    sandbox = hub.api.withKey(hub.keys.sandbox);
    await openWaitlist(hub, hub.api, { notify_expiry_minutes: 15, default_wait_minutes_per_party: 10 });
  });
  afterAll(() => hub?.close());

  const page = async () => (await hub.api.get(`/public/restaurants/${hub.restaurant.slug}/waitlist`, { key: null })).body;
  const status = async (token: string) => (await hub.api.get(`/public/waitlist/${token}`, { key: null })).body;
  const walkIn = async (api: ApiClient, body: Record<string, unknown> = {}) => {
    const r = await api.post('/v1/waitlist', { guest_name: 'Walk-in', party_size: 2, ...body });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body;
  };
  const row = (id: string) => hub.server.services.db.selectFrom('waitlist_entries').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it("sandbox walk-ins change neither the join page nor a live party's position or estimate", async () => {
    hub.clock.set(start);
    const guest = await join(hub, { guestName: 'Live Lena' });
    expect(guest.body).toMatchObject({ position: 1, partiesAhead: 0, estimatedWaitMinutes: 10 });
    expect(await page()).toMatchObject({ waitingParties: 1, estimatedWaitMinutes: 20 });
    // a sandbox queue ahead of her, and three sandbox seatings two minutes apart (a fast test pace)
    for (let i = 0; i < 3; i++) {
      const seated = await walkIn(sandbox, { guest_name: `Test seated ${i}` });
      expect((await sandbox.post(`/v1/waitlist/${seated.id}/seat`)).status).toBe(200);
      hub.clock.advance(2 * MINUTE);
    }
    const testWaiting = [await walkIn(sandbox, { guest_name: 'Test 1' }), await walkIn(sandbox, { guest_name: 'Test 2' })];
    expect(testWaiting.every((e) => e.livemode === false)).toBe(true);
    // the live queue is as it was: no sandbox party counted, the live default pace
    expect(await page()).toMatchObject({ waitingParties: 1, estimatedWaitMinutes: 20 });
    expect(await status(guest.body.token)).toMatchObject({ position: 1, partiesAhead: 0, estimatedWaitMinutes: 10 });
    const next = await join(hub, { guestName: 'Live Leo' });
    expect(next.body).toMatchObject({ position: 2, partiesAhead: 1, estimatedWaitMinutes: 20 });
    // a sandbox party stands in the sandbox queue, paced by sandbox seatings (2 min, 2 min ago)
    const settings = await getSettings(hub.server.services.db, hub.restaurant.id);
    const second = await standing(hub.server.services.db, await row(testWaiting[1].id), settings, hub.clock.now());
    expect(second).toEqual({ position: 2, partiesAhead: 1, estimatedWaitMinutes: 2 });
    // a live walk-in still joins the live queue
    await walkIn(hub.api, { guest_name: 'Live walk-in' });
    expect(await page()).toMatchObject({ waitingParties: 3 });
  });

  it('each key lists, retrieves, notifies, seats and removes only its own mode; the other is 404, nothing written', async () => {
    const live = await walkIn(hub.api, { guest_name: 'Live Luis', phone: nextPhone() });
    const test = await walkIn(sandbox, { guest_name: 'Test Tom', phone: nextPhone() });
    const ids = async (api: ApiClient, query = '') => (await api.get(`/v1/waitlist?limit=100${query}`)).body.data.map((e: any) => e.id);
    expect(await ids(hub.api)).toContain(live.id);
    expect(await ids(hub.api)).not.toContain(test.id);
    expect(await ids(hub.api, '&status=waiting&source=walk_in')).not.toContain(test.id);
    expect(await ids(sandbox)).toContain(test.id);
    expect(await ids(sandbox)).not.toContain(live.id);
    expect((await sandbox.get('/v1/waitlist?limit=100')).body.data.every((e: any) => e.livemode === false)).toBe(true);

    const before = await counts(hub, WRITES);
    for (const [api, id] of [
      [hub.api, test.id],
      [sandbox, live.id],
    ] as const) {
      for (const r of [
        await api.get(`/v1/waitlist/${id}`),
        await api.post(`/v1/waitlist/${id}/notify`, {}),
        await api.post(`/v1/waitlist/${id}/seat`),
        await api.delete(`/v1/waitlist/${id}`),
      ]) {
        expect(r.status, JSON.stringify(r.body)).toBe(404);
        expect(r.body.error.code).toBe('resource_missing');
      }
    }
    expect(await counts(hub, WRITES)).toEqual(before);
    expect((await row(live.id)).status).toBe('waiting');
    expect((await row(test.id)).status).toBe('waiting');

    // its own key works it, and its notice shows in its own mode's outbox only
    const notified = await sandbox.post(`/v1/waitlist/${test.id}/notify`, {});
    expect(notified.body).toMatchObject({ status: 'notified', notified_channel: 'sms', livemode: false });
    const outbox = async (api: ApiClient) => (await api.get('/v1/waitlist/messages?limit=100')).body.data.map((m: any) => m.waitlist_entry);
    expect(await outbox(sandbox)).toContain(test.id);
    expect(await outbox(hub.api)).not.toContain(test.id);
    await hub.api.post(`/v1/waitlist/${live.id}/notify`, {});
    expect(await outbox(hub.api)).toContain(live.id);
    expect(await outbox(sandbox)).not.toContain(live.id);
    expect((await sandbox.post(`/v1/waitlist/${test.id}/seat`)).body).toMatchObject({ status: 'seated', livemode: false });
    expect((await hub.api.delete(`/v1/waitlist/${live.id}`)).body).toMatchObject({ status: 'cancelled', livemode: true });
  });

  it('a sandbox walk-in with a phone does not block a live join with that phone; a second live join is still 409', async () => {
    const phone = nextPhone();
    const email = 'both@example.org';
    const test = await walkIn(sandbox, { guest_name: 'Test Tina', phone, email });
    const first = await join(hub, { guestName: 'Real Rita', phone, email });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect((await hub.api.get(`/v1/waitlist/${first.body.token.split('.')[0]}`)).body).toMatchObject({ livemode: true, phone: test.phone });

    const before = await counts(hub, WRITES);
    const again = await join(hub, { guestName: 'Rita again', phone });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'WAITLIST_ALREADY_JOINED', param: 'phone' });
    const twice = await sandbox.post('/v1/waitlist', { guest_name: 'Test twice', party_size: 2, email });
    expect(twice.status).toBe(409);
    expect(twice.body.error).toMatchObject({ code: 'WAITLIST_ALREADY_JOINED', param: 'email' });
    expect(await counts(hub, WRITES)).toEqual(before);

  });

  it('the active-contact indexes hold per mode: a live copy of an active sandbox entry is stored, a sandbox copy is not', async () => {
    // bypassing the join's own check, as a racing join would
    const db = hub.server.services.db;
    const entry = await row((await walkIn(sandbox, { guest_name: 'Test Theo', phone: nextPhone(), email: 'theo@example.org' })).id);
    const copy = (suffix: string, patch: Record<string, unknown>) => ({ ...entry, id: `${entry.id.slice(0, -4)}${suffix}`, ...patch });
    await db.insertInto('waitlist_entries').values(copy('ZZZ1', { livemode: 1 })).execute();
    await expect(db.insertInto('waitlist_entries').values(copy('ZZZ2', { email: null })).execute()).rejects.toThrow();
    await expect(db.insertInto('waitlist_entries').values(copy('ZZZ3', { phone: null })).execute()).rejects.toThrow();
    await expect(db.insertInto('waitlist_entries').values(copy('ZZZ4', { livemode: 1, email: null })).execute()).rejects.toThrow();
    expect((await db.selectFrom('waitlist_entries').select('livemode').where('email', '=', 'theo@example.org').execute()).map((r) => r.livemode).sort()).toEqual([0, 1]);
  });

  it('the expiry job expires notified parties of both modes, each seen by its own key only', async () => {
    const live = await walkIn(hub.api, { guest_name: 'Late live' });
    const test = await walkIn(sandbox, { guest_name: 'Late test' });
    await hub.api.post(`/v1/waitlist/${live.id}/notify`, {});
    await sandbox.post(`/v1/waitlist/${test.id}/notify`, {});
    hub.clock.advance(15 * MINUTE);
    await hub.server.scheduler.runNow('waitlist-expiry');
    expect((await hub.api.get(`/v1/waitlist/${live.id}`)).body).toMatchObject({ status: 'expired', livemode: true });
    expect((await sandbox.get(`/v1/waitlist/${test.id}`)).body).toMatchObject({ status: 'expired', livemode: false });
    expect((await hub.api.get(`/v1/waitlist/${test.id}`)).status).toBe(404);
    expect((await sandbox.get(`/v1/waitlist/${live.id}`)).status).toBe(404);
  });
});
