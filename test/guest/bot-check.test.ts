import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { counts, nextPhone, openWaitlist, solvedCaptcha } from './helpers.ts';

describe.each(DIALECTS)('the bot check of waitlist joins and feedback on %s', (dialect) => {
  let hub: TestHub;
  beforeAll(async () => {
    // the guest limits on, roomy enough that only the per-address cap of writes is reached
    hub = await startHub(dialect, { config: { guestRateLimit: { perMinutePerIp: 1000, perMinutePerRestaurant: 10_000 }, trustedProxies: ['127.0.0.1'] } });
    await openWaitlist(hub);
  });
  afterAll(() => hub?.close());
  const from = (ip: string) => ({ key: null, headers: { 'x-forwarded-for': ip } });
  const feedback = (body: Record<string, unknown>, ip = '198.51.100.9') => hub.api.post(`/public/restaurants/${hub.restaurant.slug}/feedback`, { rating: 1, ...body }, from(ip));
  const join = (body: Record<string, unknown>, ip = '198.51.100.9') =>
    hub.api.post(`/public/restaurants/${hub.restaurant.slug}/waitlist/join`, { guestName: 'Bot', partySize: 2, phone: nextPhone(), consent: true, ...body }, from(ip));
  const forged = Buffer.from(JSON.stringify({ algorithm: 'SHA-256', challenge: 'a'.repeat(64), number: 1, salt: 'x', signature: 'b'.repeat(64) })).toString('base64');

  it('a join or a feedback with a solution that is not valid, unused and of this address is refused and writes nothing', async () => {
    const before = await counts(hub, ['feedback', 'waitlist_entries', 'change_log']);
    for (const send of [feedback, join]) {
      // one sent is checked, asked for or not (without one, see test/security/guest-bot-check.test.ts)
      for (const captchaToken of ['not-a-token', forged, await solvedCaptcha(hub, from('198.51.100.77').headers)]) {
        const r = await send({ captchaToken });
        expect(r.status, captchaToken).toBe(400);
        expect(r.body.error).toMatchObject({ code: 'captcha_invalid', param: 'captchaToken' });
      }
    }
    expect(await counts(hub, ['feedback', 'waitlist_entries', 'change_log'])).toEqual(before);

    // solved by this address: taken once
    const captchaToken = await solvedCaptcha(hub, from('198.51.100.9').headers);
    expect((await join({ captchaToken })).status).toBe(201);
    const replay = await feedback({ captchaToken });
    expect(replay.body.error).toMatchObject({ code: 'captcha_invalid' });
    expect(replay.body.error.message).toContain('already used');
  });

  it('a burst from one address is stopped even with every solution right; other guests still get in', async () => {
    const ip = '203.0.113.61';
    const answered: number[] = [];
    for (let i = 0; i < 12; i++) answered.push((await feedback({ captchaToken: await solvedCaptcha(hub, from(ip).headers) }, ip)).status);
    expect(answered.filter((s) => s === 201).length).toBeGreaterThan(0);
    expect(answered.slice(-2)).toEqual([429, 429]);
    const joined = await join({ captchaToken: await solvedCaptcha(hub, from(ip).headers) }, ip);
    expect(joined.status).toBe(429);
    expect(Number(joined.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await feedback({ rating: 5, captchaToken: await solvedCaptcha(hub, from('198.51.100.200').headers) }, '198.51.100.200')).status).toBe(201);
  });
});
