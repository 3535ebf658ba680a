import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import { updateRecord } from '../../server/db/records.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { counts, join, nextPhone, openWaitlist } from './helpers.ts';

const WRITES = ['waitlist_entries', 'events', 'customers', 'change_log'];
const MINUTE = 60_000;

describe.each(DIALECTS)('public waitlist on %s', (dialect) => {
  let hub: TestHub;
  const start = Date.UTC(2026, 10, 2, 12, 0, 0);
  beforeAll(async () => {
    hub = await startHub(dialect);
    await openWaitlist(hub, hub.api, { message: 'Grab a drink at the bar.', default_wait_minutes_per_party: 10 });
  });
  afterAll(() => hub?.close());

  it('shows the join page: open now, cap, message, queue, channels', async () => {
    hub.clock.set(start);
    const r = await hub.api.get(`/public/restaurants/${hub.restaurant.slug}/waitlist`, { key: null });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      restaurant: { name: 'Test Bistro', slug: hub.restaurant.slug },
      branding: { name: 'Test Bistro' },
      isOpen: true,
      maxPartySize: 8,
      message: 'Grab a drink at the bar.',
      waitingParties: 0,
      estimatedWaitMinutes: 10,
      channels: ['email', 'sms'],
    });
  });

  it('refuses unknown slugs, switched-off waitlists and plans without it', async () => {
    // plans are changed by the operator, not through the API; like every write of a restaurant
    // it goes through the change log, which the guest pages' queue snapshot follows
    const setPlan = (id: string, plan: string) => hub.server.services.tx.run((trx) => updateRecord(trx, 'restaurants', { id }, { plan }));
    expect((await hub.api.get('/public/restaurants/nope/waitlist', { key: null })).status).toBe(404);
    const other = await hub.addRestaurant('other-place');
    const off = await hub.api.get('/public/restaurants/other-place/waitlist', { key: null });
    expect(off.status).toBe(404);
    expect(off.body.error.code).toBe('WAITLIST_DISABLED');
    const offBefore = await counts(hub, WRITES);
    const offJoin = await join(hub, {}, 'other-place');
    expect(offJoin.status).toBe(404);
    expect(offJoin.body.error.code).toBe('WAITLIST_DISABLED');
    expect(await counts(hub, WRITES)).toEqual(offBefore);
    await openWaitlist(hub, other.api);
    await setPlan(other.restaurant.id, 'starter');
    const before = await counts(hub, WRITES);
    for (const r of [
      await hub.api.get('/public/restaurants/other-place/waitlist', { key: null }),
      await join(hub, {}, 'other-place'),
    ]) {
      expect(r.status).toBe(403);
      expect(r.body.error.code).toBe('WAITLIST_NOT_IN_PLAN');
    }
    expect(await counts(hub, WRITES)).toEqual(before);
    // the retired plan, no longer sold, still includes it
    await setPlan(other.restaurant.id, 'classic');
    expect((await hub.api.get('/public/restaurants/other-place/waitlist', { key: null })).status).toBe(200);
  });

  it('joins: 201 with a token and the place; staff see it tagged online; event and change log written', async () => {
    hub.clock.set(start);
    const before = await counts(hub, WRITES);
    const r = await join(hub, { guestName: 'Grace', partySize: 4, email: 'Grace@Example.org' });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ status: 'waiting', guestName: 'Grace', partySize: 4, position: 1, partiesAhead: 0, estimatedWaitMinutes: 10 });
    expect(typeof r.body.token).toBe('string');
    const after = await counts(hub, WRITES);
    expect(after.waitlist_entries).toBe(before.waitlist_entries + 1);
    expect(after.events).toBe(before.events + 1);
    const list = await hub.api.get('/v1/waitlist?status=waiting');
    const entry = list.body.data.find((e: any) => e.guest_name === 'Grace');
    expect(entry).toMatchObject({ object: 'waitlist_entry', source: 'online', status: 'waiting', email: 'grace@example.org', consent: true });
    expect(entry.customer).toMatch(/^cus_/);
    const logged = await hub.server.services.db.selectFrom('change_log').select('op').where('row_id', '=', entry.id).execute();
    expect(logged.map((l) => l.op)).toEqual(['insert']);
    const events = await hub.api.get('/v1/events?type=waitlist.joined');
    expect(events.body.data[0].data.object.id).toBe(entry.id);

    const status = await hub.api.get(`/public/waitlist/${r.body.token}`, { key: null });
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ status: 'waiting', position: 1, partiesAhead: 0 });
    expect(status.body).not.toHaveProperty('email');
  });

  it('refuses a second join by the same phone (normalised) or email while waiting', async () => {
    const phone = '+49 30 55512345';
    expect((await join(hub, { phone })).status).toBe(201);
    const before = await counts(hub, WRITES);
    for (const body of [{ phone: '0049 30 555 12345' }, { phone: '030 55512345' }]) {
      const r = await join(hub, body);
      expect(r.status).toBe(409);
      expect(r.body.error.code).toBe('WAITLIST_ALREADY_JOINED');
    }
    expect((await join(hub, { phone: nextPhone(), email: 'same@example.org' })).status).toBe(201);
    const mid = await counts(hub, WRITES);
    const dup = await join(hub, { phone: undefined, email: ' SAME@example.org ' });
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe('WAITLIST_ALREADY_JOINED');
    expect(await counts(hub, WRITES)).toEqual(mid);
    expect(mid.waitlist_entries).toBe(before.waitlist_entries + 1);
  });

  it.each([
    ['empty name', { guestName: '' }, 'parameter_invalid', 'guestName'],
    ['500-char name', { guestName: 'x'.repeat(500) }, 'parameter_invalid', 'guestName'],
    ['missing name', { guestName: undefined }, 'parameter_missing', 'guestName'],
    ['party of 0', { partySize: 0 }, 'parameter_invalid', 'partySize'],
    ['party of 2.5', { partySize: 2.5 }, 'parameter_invalid', 'partySize'],
    ['party as string', { partySize: '2' }, 'parameter_invalid', 'partySize'],
    ['party of 1000', { partySize: 1000 }, 'WAITLIST_PARTY_TOO_LARGE', 'partySize'],
    ['party above the cap', { partySize: 9 }, 'WAITLIST_PARTY_TOO_LARGE', 'partySize'],
    ['consent false', { consent: false }, 'parameter_invalid', 'consent'],
    ['consent missing', { consent: undefined }, 'parameter_missing', 'consent'],
    ['consent "true"', { consent: 'true' }, 'parameter_invalid', 'consent'],
    ['neither phone nor email', { phone: undefined }, 'parameter_missing', 'phone'],
    ['malformed phone', { phone: '12ab' }, 'parameter_invalid', 'phone'],
    ['too short phone', { phone: '+49 1' }, 'parameter_invalid', 'phone'],
    ['malformed email', { phone: undefined, email: 'not-an-email' }, 'parameter_invalid', 'email'],
    ['oversized email', { phone: undefined, email: `${'a'.repeat(300)}@x.org` }, 'parameter_invalid', 'email'],
  ])('refuses %s with a clear 4xx and writes nothing', async (_label, patch, code, param) => {
    hub.clock.set(start);
    const before = await counts(hub, WRITES);
    const r = await join(hub, patch);
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    expect(r.body.error.code).toBe(code);
    expect(r.body.error.param).toBe(param);
    expect(await counts(hub, WRITES)).toEqual(before);
  });

  it('refuses a non-object body and unknown slugs without writing', async () => {
    const before = await counts(hub, WRITES);
    const raw = await hub.api.request('POST', `/public/restaurants/${hub.restaurant.slug}/waitlist/join`, {
      key: null,
      raw: '[1,2]',
      headers: { 'content-type': 'application/json' },
    });
    expect(raw.status).toBe(400);
    const unknown = await join(hub, {}, 'no-such-place');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('resource_missing');
    expect(await counts(hub, WRITES)).toEqual(before);
  });

  it('is closed outside opening hours (409 WAITLIST_CLOSED) and open across midnight', async () => {
    hub.clock.set(start + 3 * 60 * MINUTE); // 16:00 Berlin, after lunch
    const before = await counts(hub, WRITES);
    const r = await join(hub);
    expect(r.status).toBe(409);
    expect(r.body.error.code).toBe('WAITLIST_CLOSED');
    expect(await counts(hub, WRITES)).toEqual(before);
    expect((await hub.api.get(`/public/restaurants/${hub.restaurant.slug}/waitlist`, { key: null })).body.isOpen).toBe(false);

    // Monday 18:00 to 02:00: Tuesday 01:30 Berlin (00:30 UTC) is still Monday's evening.
    await hub.api.patch('/v1/settings', { opening_hours: { monday: [{ open: '18:00', close: '02:00' }] } });
    hub.clock.set(Date.UTC(2026, 10, 3, 0, 30));
    expect((await hub.api.get(`/public/restaurants/${hub.restaurant.slug}/waitlist`, { key: null })).body.isOpen).toBe(true);
    hub.clock.set(Date.UTC(2026, 10, 3, 1, 30)); // 02:30 Berlin
    expect((await hub.api.get(`/public/restaurants/${hub.restaurant.slug}/waitlist`, { key: null })).body.isOpen).toBe(false);
    // a closed date closes that evening, its tail after midnight too
    await hub.api.patch('/v1/settings', { closed_dates: ['2026-11-02'] });
    hub.clock.set(Date.UTC(2026, 10, 3, 0, 30));
    expect((await hub.api.get(`/public/restaurants/${hub.restaurant.slug}/waitlist`, { key: null })).body.isOpen).toBe(false);
    await hub.api.patch('/v1/settings', { closed_dates: [], opening_hours: { monday: [{ open: '11:00', close: '15:00' }] } });
  });
});

describe.each(DIALECTS)('waitlist tokens and leaving on %s', (dialect) => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub(dialect);
    await openWaitlist(hub);
  });
  afterAll(() => hub?.close());

  it('refuses tampered, truncated, unknown and other-restaurant tokens with 404 WAITLIST_ENTRY_NOT_FOUND', async () => {
    const { body } = await join(hub);
    const token: string = body.token;
    const [id, sig] = token.split('.');
    const other = await hub.addRestaurant('elsewhere');
    const otherSecret = (await hub.server.services.db.selectFrom('restaurants').select('guest_secret').where('id', '=', other.restaurant.id).executeTakeFirstOrThrow()).guest_secret;
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
    const bad = [
      flip(token, token.length - 1),
      flip(token, token.length - 10),
      flip(token, 5),
      token.slice(0, -1),
      token.slice(0, id.length + 5),
      id,
      `${id}.`,
      `wl_01ARZ3NDEKTSV4RRFFQ69G5FAV.${sig}`,
      `${id}.${createHmac('sha256', otherSecret).update(id).digest('base64url')}`,
      'garbage',
    ];
    const before = await counts(hub, ['waitlist_entries', 'events', 'change_log']);
    for (const t of bad) {
      for (const r of [
        await hub.api.get(`/public/waitlist/${encodeURIComponent(t)}`, { key: null }),
        await hub.api.post(`/public/waitlist/${encodeURIComponent(t)}/leave`, undefined, { key: null }),
      ]) {
        expect(r.status, t).toBe(404);
        expect(r.body.error.code).toBe('WAITLIST_ENTRY_NOT_FOUND');
      }
    }
    expect(await counts(hub, ['waitlist_entries', 'events', 'change_log'])).toEqual(before);
    expect((await hub.api.get(`/public/waitlist/${token}`, { key: null })).status).toBe(200);
  });

  it('leaves: waiting → cancelled and kept; leaving again → 409 WAITLIST_NOT_ACTIVE', async () => {
    const { body } = await join(hub);
    const left = await hub.api.post(`/public/waitlist/${body.token}/leave`, undefined, { key: null });
    expect(left.status).toBe(200);
    expect(left.body).toMatchObject({ status: 'cancelled', position: null, estimatedWaitMinutes: null });
    const again = await hub.api.post(`/public/waitlist/${body.token}/leave`, undefined, { key: null });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('WAITLIST_NOT_ACTIVE');
    const staff = await hub.api.get('/v1/waitlist?status=cancelled');
    expect(staff.body.data.some((e: any) => e.cancelled_by === 'guest')).toBe(true);
    const ev = await hub.api.get('/v1/events?type=waitlist.cancelled');
    expect(ev.body.data[0].data.object.status).toBe('cancelled');
  });

  it('a notified party may leave; a seated one may not; the same phone may join again after leaving', async () => {
    const phone = nextPhone();
    const a = await join(hub, { phone });
    const id = a.body.token.split('.')[0];
    expect((await hub.api.post(`/v1/waitlist/${id}/notify`, {})).body.status).toBe('notified');
    const st = await hub.api.get(`/public/waitlist/${a.body.token}`, { key: null });
    expect(st.body).toMatchObject({ status: 'notified', estimatedWaitMinutes: 0 });
    expect((await hub.api.post(`/public/waitlist/${a.body.token}/leave`, undefined, { key: null })).body.status).toBe('cancelled');
    const b = await join(hub, { phone });
    expect(b.status).toBe(201);
    const bid = b.body.token.split('.')[0];
    expect((await hub.api.post(`/v1/waitlist/${bid}/seat`)).body.status).toBe('seated');
    const r = await hub.api.post(`/public/waitlist/${b.body.token}/leave`, undefined, { key: null });
    expect(r.status).toBe(409);
    expect(r.body.error.code).toBe('WAITLIST_NOT_ACTIVE');
    expect((await hub.api.get(`/public/waitlist/${b.body.token}`, { key: null })).body.status).toBe('seated');
  });
});
