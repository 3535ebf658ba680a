import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { join, openWaitlist } from './helpers.ts';

describe.each(DIALECTS)('renaming the venue address (slug) on %s', (dialect) => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub(dialect);
    await openWaitlist(hub);
  });
  afterAll(() => hub?.close());

  it('a new slug is saved; guest links under the old one keep working and name the new one', async () => {
    const old = hub.restaurant.slug;
    const r = await hub.api.patch('/v1/settings', { slug: 'Bistro-Neu' });
    expect(r.status).toBe(200);
    expect(r.body.slug).toBe('bistro-neu');
    for (const slug of [old, 'bistro-neu']) {
      const page = await hub.api.get(`/public/restaurants/${slug}/waitlist`, { key: null });
      expect(page.status, slug).toBe(200);
      expect(page.body.restaurant).toEqual({ name: 'Test Bistro', slug: 'bistro-neu' });
    }
    // a join and a feedback through the old poster still land at this venue
    const joined = await join(hub, { guestName: 'Old Poster' }, old);
    expect(joined.status).toBe(201);
    const list = await hub.api.get('/v1/waitlist?status=waiting');
    expect(list.body.data.map((e: any) => e.guest_name)).toContain('Old Poster');
    // renamed twice: both earlier addresses still lead here
    expect((await hub.api.patch('/v1/settings', { slug: 'bistro-drei' })).status).toBe(200);
    for (const slug of [old, 'bistro-neu', 'bistro-drei']) expect((await hub.api.get(`/public/restaurants/${slug}/waitlist`, { key: null })).body.restaurant.slug).toBe('bistro-drei');
  });

  it('refuses an address another venue has or had (409, nothing written) and a malformed one (400)', async () => {
    const other = await hub.addRestaurant('other-venue');
    const before = await hub.server.services.db.selectFrom('change_log').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    for (const taken of ['bistro-drei', 'bistro-neu', hub.restaurant.slug]) {
      const r = await other.api.patch('/v1/settings', { slug: taken, name: 'Other Venue' });
      expect(r.status, taken).toBe(409);
      expect(r.body.error).toMatchObject({ code: 'resource_conflict', param: 'slug' });
      expect(r.body.error.message).toContain('another restaurant');
    }
    for (const bad of ['-bad', 'bad slug', 'über', 'x'.repeat(51)]) {
      const r = await other.api.patch('/v1/settings', { slug: bad });
      expect(r.status, bad).toBe(400);
      expect(r.body.error.param).toBe('slug');
    }
    const after = await hub.server.services.db.selectFrom('change_log').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    const settings = await other.api.get('/v1/settings');
    expect(settings.body).toMatchObject({ slug: 'other-venue', name: expect.not.stringContaining('Other Venue') });
    // a venue made later cannot take a former address either
    await expect(hub.addRestaurant('bistro-neu')).rejects.toThrow(/already used/);
  });

  it('a venue may take back an address it had', async () => {
    const r = await hub.api.patch('/v1/settings', { slug: 'bistro-neu' });
    expect(r.status).toBe(200);
    expect((await hub.api.get('/public/restaurants/bistro-drei/waitlist', { key: null })).body.restaurant.slug).toBe('bistro-neu');
  });

  it('keeps only the last three former addresses: renaming cannot hold dozens from everyone (issue 40)', async () => {
    const squatter = await hub.addRestaurant('squat-0');
    for (let i = 1; i <= 10; i++) expect((await squatter.api.patch('/v1/settings', { slug: `squat-${i}` })).status).toBe(200);
    const row = await hub.server.services.db.selectFrom('restaurants').select('former_slugs').where('id', '=', squatter.restaurant.id).executeTakeFirstOrThrow();
    expect(JSON.parse(row.former_slugs!)).toEqual(['squat-7', 'squat-8', 'squat-9']);
    // the older ones are free again for anyone, the kept ones still lead to the squatter
    const other = await hub.addRestaurant('free-taker');
    expect((await other.api.patch('/v1/settings', { slug: 'squat-1' })).status).toBe(200);
    expect((await other.api.patch('/v1/settings', { slug: 'squat-8' })).status).toBe(409);
  });
});
