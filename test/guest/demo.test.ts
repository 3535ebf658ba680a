import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guestDemo } from '../../server/demo/guest.ts';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { openWaitlist } from './helpers.ts';

describe.each(DIALECTS)('guest demo data on %s', (dialect) => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub(dialect);
    await openWaitlist(hub);
  });
  afterAll(() => hub?.close());

  it('seeds a live queue with a measured pace, feedback, and working public links', async () => {
    const result: Record<string, any> = {};
    const actor = { restaurantId: hub.restaurant.id, livemode: true, now: hub.clock.now() };
    await guestDemo(hub.server.services.tx, actor, { historyDays: 0, ordersPerDay: 1 }, result, hub.server.services.registry.hooks);
    const waiting = await hub.api.get('/v1/waitlist?status=waiting');
    expect(waiting.body.data).toHaveLength(4);
    expect((await hub.api.get('/v1/waitlist?status=seated')).body.data).toHaveLength(3);
    expect((await hub.api.get('/v1/feedback')).body.data).toHaveLength(3);
    // what the demo reports are the guest's pages, each served by the hub
    expect(result.waitlist.joinPage).toBe(`/r/${hub.restaurant.slug}/waitlist`);
    expect(result.waitlist.statusOfFirstParty).toMatch(/^\/waitlist\/[\w.-]+$/);
    for (const url of [result.waitlist.joinPage, result.waitlist.feedbackPage, result.waitlist.statusOfFirstParty]) {
      const html = await fetch(hub.url + url);
      expect(html.status).toBe(200);
      expect(html.headers.get('content-type')).toContain('text/html');
    }
    const page = await hub.api.get(result.waitlist.api.join, { key: null });
    expect(page.body).toMatchObject({ waitingParties: 4, isOpen: true });
    // seatings 8 minutes apart, the last 14 minutes ago: 5 × 8 − 8 = 32 minutes for a new party
    expect(page.body.estimatedWaitMinutes).toBe(32);
    const first = await hub.api.get(result.waitlist.api.statusOfFirstParty, { key: null });
    expect(first.body).toMatchObject({ status: 'waiting', position: 1, guestName: 'Giulia B.' });
  });
});
