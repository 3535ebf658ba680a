import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { presentGuestStatus } from '../../server/presenters/guest.ts';
import { updateRecord } from '../../server/db/records.ts';
import { readSettings } from '../../server/model/settings.ts';
import { restaurantBySlug } from '../../server/domain/waitlist/access.ts';
import { queueSummary, standing } from '../../server/domain/waitlist/entries.ts';
import { expireNotifiedEntries } from '../../server/domain/waitlist/expire.ts';
import { isOpenAt } from '../../server/domain/waitlist/open-now.ts';
import { tokenEntryId } from '../../server/domain/waitlist/token.ts';
import type { ComandaServer } from '../../server/server.ts';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, startSecondServer, type ApiClient, type TestHub } from '../helpers/server.ts';
import { join, nextPhone, openWaitlist, solvedCaptcha } from './helpers.ts';

const MINUTE = 60_000;
const start = Date.UTC(2026, 10, 2, 12, 0, 0); // a Monday, 13:00 in Berlin: open (helpers.MONDAY_LUNCH)

/**
 * The guest waitlist pages are answered from a snapshot of the queue (queue-snapshot.ts).
 * Each answer must be, byte for byte, what the four queries it replaces would give at the
 * same moment: these are those queries, as the routes ran them before the snapshot.
 */
async function referencePage(hub: TestHub, slug: string): Promise<string> {
  const db = hub.server.services.db;
  const now = hub.clock.now();
  const { restaurant, settings } = await restaurantBySlug(db, slug);
  const queue = await queueSummary(db, restaurant.id, settings, now);
  return JSON.stringify({
    object: 'waitlist_page',
    restaurant: { name: restaurant.name, slug: restaurant.slug },
    branding: { name: restaurant.name },
    isOpen: isOpenAt(settings, now),
    maxPartySize: settings.waitlist.max_party_size,
    message: settings.waitlist.message,
    waitingParties: queue.waitingParties,
    estimatedWaitMinutes: queue.estimatedWaitMinutes,
    channels: settings.waitlist.channels,
  });
}

async function referenceStatus(hub: TestHub, token: string): Promise<string> {
  const db = hub.server.services.db;
  const entry = await db.selectFrom('waitlist_entries').selectAll().where('id', '=', tokenEntryId(token)!).executeTakeFirstOrThrow();
  const restaurant = await db.selectFrom('restaurants').selectAll().where('id', '=', entry.restaurant_id).executeTakeFirstOrThrow();
  return JSON.stringify(presentGuestStatus(entry, restaurant, await standing(db, entry, readSettings(restaurant), hub.clock.now())));
}

/** The raw answer of a guest route, as the phone receives it. */
async function raw(api: ApiClient, path: string): Promise<{ status: number; text: string; type: string | null }> {
  const res = await fetch(api.baseUrl + path);
  return { status: res.status, text: await res.text(), type: res.headers.get('content-type') };
}

describe.each(DIALECTS)('guest waitlist pages answered from the queue snapshot on %s', (dialect) => {
  let hub: TestHub;
  let other: ComandaServer;
  let otherApi: ApiClient;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-waitlist-snapshot-'));
  const tokens: string[] = [];

  /** Every page and every token's status, from both servers, against the reference queries. */
  async function expectAllCurrent(): Promise<{ page: any; statuses: any[] }> {
    const slug = hub.restaurant.slug;
    const page = await referencePage(hub, slug);
    const statuses: any[] = [];
    for (const api of [hub.api, otherApi]) {
      const got = await raw(api, `/public/restaurants/${slug}/waitlist`);
      expect(got.status).toBe(200);
      expect(got.type).toBe('application/json; charset=utf-8');
      expect(got.text).toBe(page);
      for (const token of tokens) {
        const status = await raw(api, `/public/waitlist/${token}`);
        expect(status.status).toBe(200);
        expect(status.type).toBe('application/json; charset=utf-8');
        expect(status.text).toBe(await referenceStatus(hub, token));
        if (api === hub.api) statuses.push(JSON.parse(status.text));
      }
    }
    return { page: JSON.parse(page), statuses };
  }

  beforeAll(async () => {
    hub = await startHub(dialect, { dataDir: dir });
    // a second server on the same database: its writes must reach this server's snapshot
    ({ server: other, api: otherApi } = await startSecondServer(hub, dir));
    hub.clock.set(start);
    await openWaitlist(hub, hub.api, { default_wait_minutes_per_party: 10, notify_expiry_minutes: 15 });
  });
  afterAll(async () => {
    await other?.close();
    await hub?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('follows joins, notifies, seatings, leaves and expiries made on either server', async () => {
    let now = await expectAllCurrent();
    expect(now.page).toMatchObject({ waitingParties: 0, estimatedWaitMinutes: 10, isOpen: true });

    const a = await join(hub, { guestName: 'Ada' });
    tokens.push(a.body.token);
    now = await expectAllCurrent();
    expect(now.page.waitingParties).toBe(1);
    expect(now.statuses[0]).toMatchObject({ status: 'waiting', position: 1, estimatedWaitMinutes: 10 });

    // a join on the other server
    hub.clock.advance(MINUTE);
    const b = await otherApi.post(
      `/public/restaurants/${hub.restaurant.slug}/waitlist/join`,
      { guestName: 'Bea', partySize: 3, phone: nextPhone(), consent: true, captchaToken: await solvedCaptcha(hub) },
      { key: null },
    );
    expect(b.status).toBe(201);
    tokens.push(b.body.token);
    now = await expectAllCurrent();
    expect(now.page.waitingParties).toBe(2);
    expect(now.statuses[1]).toMatchObject({ position: 2, partiesAhead: 1, estimatedWaitMinutes: 20 });

    // a walk-in added by staff on this server queues behind both
    const walkIn = await hub.api.post('/v1/waitlist', { guest_name: 'Walk-in', party_size: 2 });
    now = await expectAllCurrent();
    expect(now.page.waitingParties).toBe(3);

    // notified on the other server: still in the queue, no wait left
    const aId = tokenEntryId(a.body.token)!;
    expect((await otherApi.post(`/v1/waitlist/${aId}/notify`, {})).status).toBe(200);
    now = await expectAllCurrent();
    expect(now.statuses[0]).toMatchObject({ status: 'notified', position: 1, estimatedWaitMinutes: 0 });

    // seated here: out of the queue, the next party moves up
    expect((await hub.api.post(`/v1/waitlist/${aId}/seat`)).status).toBe(200);
    now = await expectAllCurrent();
    expect(now.statuses[0]).toMatchObject({ status: 'seated', position: null, estimatedWaitMinutes: null });
    expect(now.statuses[1]).toMatchObject({ position: 1, partiesAhead: 0 });
    expect(now.page.waitingParties).toBe(2);

    // the guest leaves through the other server
    expect((await otherApi.post(`/public/waitlist/${b.body.token}/leave`, {}, { key: null })).status).toBe(200);
    now = await expectAllCurrent();
    expect(now.statuses[1]).toMatchObject({ status: 'cancelled', position: null });
    expect(now.page.waitingParties).toBe(1);

    // a notified party not back in time expires (the scheduler's job, on the other server)
    const c = await join(hub, { guestName: 'Cem' });
    tokens.push(c.body.token);
    await hub.api.post(`/v1/waitlist/${tokenEntryId(c.body.token)}/notify`, {});
    now = await expectAllCurrent();
    expect(now.statuses[2].status).toBe('notified');
    hub.clock.advance(16 * MINUTE);
    expect(await expireNotifiedEntries(other.services.tx, hub.clock.now())).toBe(1);
    now = await expectAllCurrent();
    expect(now.statuses[2]).toMatchObject({ status: 'expired', position: null });

    // staff remove the walk-in
    expect((await otherApi.delete(`/v1/waitlist/${walkIn.body.id}`)).status).toBe(200);
    now = await expectAllCurrent();
    expect(now.page.waitingParties).toBe(0);
  });

  it('follows the clock: the estimate second by second after a seating, the opening hours to the minute', async () => {
    hub.clock.set(start + 60 * MINUTE);
    const seat = async (api: ApiClient) => {
      const e = await api.post('/v1/waitlist', { guest_name: 'Pace', party_size: 2 });
      expect((await api.post(`/v1/waitlist/${e.body.id}/seat`)).status).toBe(200);
    };
    const d = await join(hub, { guestName: 'Dora' });
    tokens.push(d.body.token);
    // with Ada's seating at 12:01, three in the window: a pace of (67 − 1) / 2 = 33 minutes a
    // party, less the time since the last seating, which grows second by second
    await seat(hub.api);
    hub.clock.advance(7 * MINUTE);
    await seat(otherApi);
    const seen = new Set<number>();
    for (let s = 0; s <= 9 * 60; s += 20) {
      const { statuses } = await expectAllCurrent();
      seen.add(statuses.at(-1).estimatedWaitMinutes);
      hub.clock.advance(20_000);
    }
    expect([...seen].sort((x, y) => y - x)).toEqual([33, 32, 31, 30, 29, 28, 27, 26, 25, 24]);
    // closing time (15:00 in Berlin) is read to the minute
    hub.clock.set(Date.UTC(2026, 10, 2, 13, 59, 59));
    expect((await expectAllCurrent()).page.isOpen).toBe(true);
    hub.clock.advance(1_000);
    expect((await expectAllCurrent()).page.isOpen).toBe(false);
    // three hours after the last seating the pace is forgotten: back to the default
    hub.clock.set(start + 68 * MINUTE + 3 * 60 * MINUTE + 1_000);
    expect((await expectAllCurrent()).statuses.at(-1).estimatedWaitMinutes).toBe(10);
    // a clock set back past the seatings the snapshot read makes it read them again: at 13:02
    // the 13:07 seating is still to come (59 minutes a party, 2 since the last)
    hub.clock.set(start + 62 * MINUTE);
    expect((await expectAllCurrent()).statuses.at(-1).estimatedWaitMinutes).toBe(57);
    hub.clock.set(start + 69 * MINUTE);
    expect((await expectAllCurrent()).statuses.at(-1).estimatedWaitMinutes).toBe(31);
  });

  it('follows the settings, the plan and the slug of the restaurant', async () => {
    hub.clock.set(start + 70 * MINUTE);
    expect((await otherApi.patch('/v1/settings', { waitlist: { message: 'Drinks at the bar meanwhile', max_party_size: 6 } })).status).toBe(200);
    expect((await expectAllCurrent()).page).toMatchObject({ message: 'Drinks at the bar meanwhile', maxPartySize: 6 });
    expect((await hub.api.patch('/v1/settings', { name: 'Bistro Neu' })).status).toBe(200);
    const { page, statuses } = await expectAllCurrent();
    expect(page.restaurant.name).toBe('Bistro Neu');
    expect(statuses.every((s) => s.restaurant.name === 'Bistro Neu')).toBe(true);
    expect((await otherApi.patch('/v1/settings', { waitlist: { enabled: false } })).status).toBe(200);
    const off = await hub.api.get(`/public/restaurants/${hub.restaurant.slug}/waitlist`, { key: null });
    expect(off.body.error.code).toBe('WAITLIST_DISABLED');
    expect((await otherApi.patch('/v1/settings', { waitlist: { enabled: true } })).status).toBe(200);
    await expectAllCurrent();

    const setRestaurant = (server: ComandaServer, patch: { plan?: string; slug?: string }) =>
      server.services.tx.run((trx) => updateRecord(trx, 'restaurants', { id: hub.restaurant.id }, patch));
    await setRestaurant(other, { plan: 'starter' });
    const refused = await hub.api.get(`/public/restaurants/${hub.restaurant.slug}/waitlist`, { key: null });
    expect(refused.body.error.code).toBe('WAITLIST_NOT_IN_PLAN');
    await setRestaurant(other, { plan: 'pro' });

    // a new slug: the old one is unknown at once, and may then name another restaurant
    const old = hub.restaurant.slug;
    await setRestaurant(other, { slug: `${old}-neu` });
    const gone = await hub.api.get(`/public/restaurants/${old}/waitlist`, { key: null });
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe('resource_missing');
    expect((await raw(hub.api, `/public/restaurants/${old}-neu/waitlist`)).text).toBe(await referencePage(hub, `${old}-neu`));
    const second = await hub.addRestaurant(old);
    await openWaitlist(hub, second.api);
    const theirs = await raw(hub.api, `/public/restaurants/${old}/waitlist`);
    expect(JSON.parse(theirs.text)).toMatchObject({ restaurant: { slug: old, name: old }, waitingParties: 0 });
    expect(theirs.text).toBe(await referencePage(hub, old));
    // the tokens still name their own restaurant's entries
    for (const token of tokens) expect((await raw(hub.api, `/public/waitlist/${token}`)).text).toBe(await referenceStatus(hub, token));
  });

  it('still refuses a token that is not exactly the one signed, once its entry is held', async () => {
    const token = tokens[0];
    expect((await hub.api.get(`/public/waitlist/${token}`, { key: null })).status).toBe(200);
    const [id, sig] = token.split('.');
    const flip = (ch: string) => (ch === 'A' ? 'B' : 'A');
    for (const bad of [`${id}.${sig.slice(0, -1)}${flip(sig.at(-1)!)}`, `${id}.${sig.slice(0, -2)}`, `${id}.${sig}x`, `${id}.`]) {
      const res = await hub.api.get(`/public/waitlist/${encodeURIComponent(bad)}`, { key: null });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('WAITLIST_ENTRY_NOT_FOUND');
    }
  });
});
