import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import { ApiClient, startHub, type TestHub } from '../helpers/server.ts';

// counts the password hashes a sign-in computes (the real scrypt still runs)
const counted = vi.hoisted(() => ({ n: 0 }));
vi.mock('../../server/auth/passwords.ts', async (original) => {
  const real = await original<typeof import('../../server/auth/passwords.ts')>();
  return {
    ...real,
    verifyPassword: async (...args: Parameters<typeof real.verifyPassword>) => {
      counted.n++;
      return real.verifyPassword(...args);
    },
  };
});

/**
 * On the cloud one email may sign in at several restaurants. Sign-in computes the same number
 * of password hashes whatever the number of accounts an email matches (none, one, two, three),
 * so the time a wrong password takes says nothing about where the email is used (issue 40).
 */
describe.each(DIALECTS)('cloud sign-in checks a fixed number of hashes (%s)', (dialect) => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub(dialect, { config: { role: 'cloud', trustedProxies: ['127.0.0.1'] } });
    const places = [hub.api, (await hub.addRestaurant('second-place')).api, (await hub.addRestaurant('third-place')).api];
    // one@ has an account at one restaurant, two@ at two, three@ at three
    for (const [i, who] of ['one', 'two', 'three'].entries()) {
      for (const api of places.slice(0, i + 1)) {
        const made = await api.post('/v1/staff', { name: who, email: `${who}@example.com`, role: 'manager' });
        expect((await api.post(`/v1/staff/${made.body.id}/password`, { password: `${who} right password` })).status).toBe(200);
      }
    }
  }, 120_000); // 120 s: hashing passwords with scrypt on a shared 2-core box, several times over
  afterAll(() => hub?.close());

  it('a wrong password costs the same hashes for an unknown email and for one used at one, two or three restaurants', async () => {
    const costs: Record<string, number> = {};
    for (const [n, who] of ['nobody', 'one', 'two', 'three'].entries()) {
      const before = counted.n;
      const r = await new ApiClient(hub.url, null).post('/v1/auth/login', { email: `${who}@example.com`, password: 'a wrong password' }, { headers: { 'x-forwarded-for': `198.51.100.${n + 1}` } });
      expect(r.status).toBe(401);
      costs[who] = counted.n - before;
    }
    expect(new Set(Object.values(costs)).size, JSON.stringify(costs)).toBe(1);
    // and a right password still signs in (one restaurant) or asks which (two)
    const ok = await new ApiClient(hub.url, null).post('/v1/auth/login', { email: 'one@example.com', password: 'one right password' }, { headers: { 'x-forwarded-for': '198.51.100.9' } });
    expect(ok.status).toBe(200);
    const which = await new ApiClient(hub.url, null).post('/v1/auth/login', { email: 'two@example.com', password: 'two right password' }, { headers: { 'x-forwarded-for': '198.51.100.10' } });
    expect(which.body.error).toMatchObject({ code: 'parameter_missing', param: 'restaurant' });
  }, 120_000); // 120 s: hashing passwords with scrypt on a shared 2-core box, several times over
});
