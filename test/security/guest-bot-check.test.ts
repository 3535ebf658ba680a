import { solveChallenge } from 'altcha-lib/v1';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guestOf } from '../../server/http/guest-services.ts';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { counts, nextPhone, openWaitlist } from '../guest/helpers.ts';

/**
 * Issue 40, "the guest's bot check and the seed's clients": a waitlist join or a feedback shaped
 * as the spec names it (no captchaToken) is taken while its address and its restaurant stay
 * under a rate; past it, or when the venue asks always, the answer is 403 captcha_required naming
 * the challenge's address, and the same request with that challenge solved is taken.
 */
describe.each(DIALECTS)('the guest bot check is asked only past a rate or when the venue asks (%s)', (dialect) => {
  let hub: TestHub;
  const from = (ip: string) => ({ key: null, headers: { 'x-forwarded-for': ip } });
  const joinBody = () => ({ guestName: 'Ada', partySize: 2, phone: nextPhone(), consent: true });
  const join = (ip: string, body: Record<string, unknown> = {}, slug = hub.restaurant.slug) =>
    hub.api.post(`/public/restaurants/${slug}/waitlist/join`, { ...joinBody(), ...body }, from(ip));
  const feedback = (ip: string, body: Record<string, unknown> = {}, slug = hub.restaurant.slug) =>
    hub.api.post(`/public/restaurants/${slug}/feedback`, { rating: 4, comment: 'Nice', ...body }, from(ip));

  /** What a client does with captcha_required: fetch the named challenge, solve it, send the solution. */
  async function solve(challengeUrl: string, ip: string): Promise<string> {
    const c = await hub.api.get(challengeUrl, from(ip));
    expect(c.status).toBe(200);
    const solution = await solveChallenge(c.body.challenge, c.body.salt, c.body.algorithm, c.body.maxnumber).promise;
    const payload = { algorithm: c.body.algorithm, challenge: c.body.challenge, number: solution!.number, salt: c.body.salt, signature: c.body.signature };
    return Buffer.from(JSON.stringify(payload)).toString('base64');
  }

  function expectAsked(r: { status: number; body: any }) {
    expect(r.status, JSON.stringify(r.body)).toBe(403);
    expect(r.body.error).toMatchObject({ code: 'captcha_required', param: 'captchaToken', challenge_url: '/public/captcha' });
    return r.body.error.challenge_url as string;
  }

  beforeAll(async () => {
    // the guest limits at their defaults, each test's addresses its own
    hub = await startHub(dialect, { config: { guestRateLimit: { perMinutePerIp: 60, perMinutePerRestaurant: 600 }, trustedProxies: ['127.0.0.1'] } });
    guestOf(hub.server.services).captchaMaxNumber = 2000;
    await openWaitlist(hub);
  });
  afterAll(() => hub?.close());

  it('a spec-shaped join and feedback without captchaToken are taken under the rate', async () => {
    const joined = await join('198.51.100.1');
    expect(joined.status, JSON.stringify(joined.body)).toBe(201);
    expect(joined.body).toMatchObject({ status: 'waiting', token: expect.any(String) });
    const left = await feedback('198.51.100.1');
    expect(left.status, JSON.stringify(left.body)).toBe(201);
    expect(left.body).toMatchObject({ object: 'feedback', rating: 4, comment: 'Nice' });
    // a solution sent unasked is still checked
    expect((await feedback('198.51.100.1', { captchaToken: 'not-a-token' })).body.error.code).toBe('captcha_invalid');
  });

  it('an address past the rate is asked (nothing written), and taken once it sends the solved challenge', async () => {
    const ip = '203.0.113.10';
    for (let i = 0; i < 5; i++) expect((await feedback(ip)).status, `write ${i + 1}`).toBe(201);
    const before = await counts(hub, ['feedback', 'waitlist_entries', 'change_log']);
    const url = expectAsked(await join(ip));
    expectAsked(await feedback(ip));
    expect(await counts(hub, ['feedback', 'waitlist_entries', 'change_log'])).toEqual(before);

    const body = joinBody();
    const solved = await join(ip, { ...body, captchaToken: await solve(url, ip) });
    expect(solved.status, JSON.stringify(solved.body)).toBe(201);
    expect((await feedback(ip, { captchaToken: await solve(url, ip) })).status).toBe(201);
    // another address is not asked
    expect((await feedback('203.0.113.11')).status).toBe(201);
    // the rate refills: an hour on, the address sends unchecked again
    hub.clock.advance(3600_000);
    expect((await feedback(ip)).status).toBe(201);
  });

  it('a restaurant past the rate across addresses asks every new address; another restaurant is not asked', async () => {
    await hub.addRestaurant('busy-place');
    await hub.addRestaurant('calm-place');
    let taken = 0;
    for (let a = 1; taken < 30; a++) for (let i = 0; i < 5 && taken < 30; i++, taken++) expect((await feedback(`192.0.2.${a}`, {}, 'busy-place')).status).toBe(201);
    const fresh = '192.0.2.200';
    const url = expectAsked(await feedback(fresh, {}, 'busy-place'));
    expect((await feedback(fresh, { captchaToken: await solve(url, fresh) }, 'busy-place')).status).toBe(201);
    expect((await feedback(fresh, {}, 'calm-place')).status).toBe(201);
  });

  it('the venue asks every guest when it says so in its settings', async () => {
    const set = await hub.api.patch('/v1/settings', { guest_bot_check: 'always' });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.guest_bot_check).toBe('always');
    const ip = '198.51.100.40';
    const url = expectAsked(await join(ip));
    expect((await join(ip, { captchaToken: await solve(url, ip) })).status).toBe(201);
    expectAsked(await feedback(ip));
    expect((await hub.api.patch('/v1/settings', { guest_bot_check: 'when_busy' })).status).toBe(200);
    expect((await feedback(ip)).status).toBe(201);
  });
});
