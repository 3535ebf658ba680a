import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { openWaitlist } from '../guest/helpers.ts';

/**
 * Issue 40, item 10: a restaurant's guest budget (600 requests a minute at the defaults) is
 * shared fairly between the addresses asking. Forty addresses asking as fast as their own limit
 * lets them once drained it for everyone (each counted as a "light" guest); now, past the
 * budget, each address is held to its share, and a guest who asks now and then still gets in.
 */
describe.each(DIALECTS)('forty addresses cannot starve a restaurant’s guests (%s)', (dialect) => {
  let hub: TestHub;
  const from = (ip: string) => ({ key: null, headers: { 'x-forwarded-for': ip } });
  beforeAll(async () => {
    hub = await startHub(dialect, { config: { guestRateLimit: { perMinutePerIp: 60, perMinutePerRestaurant: 600 }, trustedProxies: ['127.0.0.1'] } });
    await openWaitlist(hub);
  });
  afterAll(() => hub?.close());

  it('at the defaults, 40 addresses at 30 requests each leave the guests who ask now and then served', async () => {
    const page = `/public/restaurants/${hub.restaurant.slug}/waitlist`;
    const heavy = Array.from({ length: 40 }, (_, i) => `203.0.113.${i + 1}`);
    let granted = 0;
    // the clock stands still: all of it within one minute
    for (const ip of heavy) {
      const answers = await Promise.all(Array.from({ length: 30 }, () => hub.api.get(page, from(ip))));
      granted += answers.filter((r) => r.status === 200).length;
    }
    // the budget went, and the heavy addresses were held to their shares
    expect(granted).toBeGreaterThanOrEqual(600);
    expect(granted).toBeLessThan(40 * 30);

    // guests arriving now: each page load and a status poll or two are answered
    for (let g = 1; g <= 10; g++) {
      for (let k = 0; k < 3; k++) {
        const r = await hub.api.get(page, from(`198.51.100.${g}`));
        expect(r.status, `guest ${g}, request ${k + 1}: ${JSON.stringify(r.body)}`).toBe(200);
      }
    }
    // the heaviest are still refused, told when to come back
    const again = await hub.api.get(page, from(heavy[0]));
    expect(again.status).toBe(429);
    expect(again.body.error.code).toBe('rate_limited');
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
  }, 60_000);
});
