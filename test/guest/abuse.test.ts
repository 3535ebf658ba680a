import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientKey } from '../../server/http/client-ip.ts';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { counts, openWaitlist, solvedCaptcha } from './helpers.ts';

const LIMITS = { perMinutePerIp: 3, perMinutePerRestaurant: 5 };

describe.each(DIALECTS)('guest rate limits without a trusted proxy on %s', (dialect) => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub(dialect, { config: { guestRateLimit: LIMITS } });
    await openWaitlist(hub);
  });
  afterAll(() => hub?.close());

  it('limits each IP (429 with Retry-After); a forged X-Forwarded-For does not open a new bucket', async () => {
    for (let i = 0; i < 3; i++) expect((await hub.api.get('/public/pricing', { key: null })).status).toBe(200);
    const limited = await hub.api.get('/public/pricing', { key: null });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('rate_limited');
    // 3 per minute refill one every 20 s
    expect(limited.headers.get('retry-after')).toBe('20');
    const spoofed = await hub.api.get('/public/pricing', { key: null, headers: { 'x-forwarded-for': '203.0.113.50' } });
    expect(spoofed.status).toBe(429);
    const before = await counts(hub, ['waitlist_entries', 'events']);
    // limited before its bot check (or anything else) is looked at
    const j = await hub.api.post(`/public/restaurants/${hub.restaurant.slug}/waitlist/join`, { guestName: 'Ada', partySize: 2, email: 'a@example.com', consent: true, captchaToken: 'x' }, { key: null });
    expect(j.status).toBe(429);
    expect(await counts(hub, ['waitlist_entries', 'events'])).toEqual(before);
    hub.clock.advance(20_000);
    expect((await hub.api.get('/public/pricing', { key: null })).status).toBe(200);
    expect((await hub.api.get('/public/pricing', { key: null })).status).toBe(429);
    // staff routes are not guest routes
    expect((await hub.api.get('/v1/waitlist')).status).toBe(200);
  });

  it('counts malformed and invalid requests too: they are limited before they are read', async () => {
    hub.clock.advance(60_000);
    const bad = () => hub.api.request('POST', '/public/restaurants/x_unknown/waitlist/join', { key: null, raw: '{"partySize":', headers: { 'content-type': 'application/json' } });
    for (let i = 0; i < 3; i++) expect((await bad()).status).toBe(400);
    const limited = await bad();
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('rate_limited');
    expect((await hub.api.get('/public/pricing', { key: null })).status).toBe(429);
  });
});

describe.each(DIALECTS)('guest rate limits behind a trusted proxy on %s', (dialect) => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub(dialect, { config: { guestRateLimit: LIMITS, trustedProxies: ['127.0.0.1'] } });
    await openWaitlist(hub);
  });
  afterAll(() => hub?.close());
  const from = (ip: string) => ({ key: null, headers: { 'x-forwarded-for': ip } });

  it('takes the client from X-Forwarded-For (right-most untrusted hop) and limits each client separately', async () => {
    for (let i = 0; i < 3; i++) expect((await hub.api.get('/public/pricing', from('198.51.100.1'))).status).toBe(200);
    expect((await hub.api.get('/public/pricing', from('198.51.100.1'))).status).toBe(429);
    // a client-written left-most hop is ignored: still 198.51.100.1
    expect((await hub.api.get('/public/pricing', from('10.9.9.9, 198.51.100.1'))).status).toBe(429);
    expect((await hub.api.get('/public/pricing', from('198.51.100.2'))).status).toBe(200);
    expect((await hub.api.get('/public/pricing', from('198.51.100.2, 127.0.0.1'))).status).toBe(200);
  });

  it('counts an IPv6 client by its /64: rotating addresses inside it opens no new bucket', async () => {
    for (const ip of ['2001:db8:aa:1::1', '2001:db8:aa:1::2', '2001:db8:aa:1:ffff:ffff:ffff:ffff']) {
      expect((await hub.api.get('/public/pricing', from(ip))).status, ip).toBe(200);
    }
    expect((await hub.api.get('/public/pricing', from('2001:0db8:00aa:0001:0:0:0:9'))).status).toBe(429);
    expect((await hub.api.get('/public/pricing', from('2001:db8:aa:2::1'))).status).toBe(200);
  });

  it('limits each restaurant across all IPs; other restaurants are unaffected', async () => {
    await hub.addRestaurant('quiet-place');
    const path = `/public/restaurants/${hub.restaurant.slug}/waitlist`;
    for (let i = 0; i < 5; i++) expect((await hub.api.get(path, from(`192.0.2.${i + 1}`))).status).toBe(200);
    const limited = await hub.api.get(path, from('192.0.2.100'));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    const elsewhere = await hub.api.get('/public/restaurants/quiet-place/waitlist', from('192.0.2.101'));
    expect(elsewhere.body.error.code).toBe('WAITLIST_DISABLED'); // answered, not rate limited
    const fb = await hub.api.post('/public/restaurants/quiet-place/feedback', { rating: 5, captchaToken: await solvedCaptcha(hub, from('192.0.2.102').headers) }, from('192.0.2.102'));
    expect(fb.status).toBe(201);
  });
});

describe.each(DIALECTS)("a restaurant's guest budget is shared fairly on %s", (dialect) => {
  let hub: TestHub;
  beforeAll(async () => {
    // past the restaurant's 20 a minute, each address asking is held to its fair share of them
    hub = await startHub(dialect, { config: { guestRateLimit: { perMinutePerIp: 8, perMinutePerRestaurant: 20 }, trustedProxies: ['127.0.0.1'] } });
    await openWaitlist(hub);
  });
  afterAll(() => hub?.close());
  const from = (ip: string) => ({ key: null, headers: { 'x-forwarded-for': ip } });

  it('a few addresses asking as fast as they may spend their share and are refused; other guests still get in', async () => {
    const path = `/public/restaurants/${hub.restaurant.slug}/waitlist`;
    const answered: Record<string, number[]> = {};
    for (const ip of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) {
      answered[ip] = [];
      for (let i = 0; i < 8; i++) answered[ip].push((await hub.api.get(path, from(ip))).status);
    }
    const refused = Object.values(answered).flat().filter((s) => s === 429).length;
    expect(refused).toBeGreaterThan(0);
    // the burst got the budget and, past it, no more than its shares
    expect(Object.values(answered).flat().filter((s) => s === 200).length).toBeLessThan(24);
    for (const ip of ['198.51.100.20', '198.51.100.21', '2001:db8:77::1', '198.51.100.22']) {
      expect((await hub.api.get(path, from(ip))).status, ip).toBe(200);
    }
    // the heavy ones are still refused, with a time to come back
    const again = await hub.api.get(path, from('203.0.113.1'));
    expect(again.status).toBe(429);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('rate-limit client keys', () => {
  it('keep IPv4 addresses whole and cut IPv6 ones to their /64, however written', () => {
    expect(clientKey('198.51.100.7')).toBe('198.51.100.7');
    for (const ip of ['2001:db8:aa:1::1', '2001:0db8:00aa:0001:0000:0000:0000:0001', '2001:db8:aa:1:1:2:3:4', '2001:db8:aa:1::%eth0']) {
      expect(clientKey(ip), ip).toBe('2001:db8:aa:1::/64');
    }
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey('fe80::1')).toBe('fe80:0:0:0::/64');
  });
});
