import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/assert.ts';
import { DIALECTS } from '../helpers/db.ts';
import { ApiClient, startHub, startSecondServer, type TestHub } from '../helpers/server.ts';

/** The cloud behind its load balancer: the address is the one the proxy names. */
const from = (hub: TestHub) => new ApiClient(hub.url, null);
const login = (hub: TestHub, ip: string, body: Record<string, string>) =>
  from(hub).post('/v1/auth/login', body, { headers: { 'x-forwarded-for': ip } });

// every sign-in checks a password hash (scrypt), which takes a while on a busy machine
const SLOW = 120_000;

describe.each(DIALECTS)('cloud sign-in (%s)', (dialect) => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub(dialect, { config: { role: 'cloud', trustedProxies: ['127.0.0.1'] } });
    const second = await hub.addRestaurant('second-place');
    const add = async (api: ApiClient, password: string) => {
      const made = await api.post('/v1/staff', { name: 'Sam', email: 'sam@example.com', role: 'manager' });
      expect((await api.post(`/v1/staff/${made.body.id}/password`, { password })).status).toBe(200);
    };
    await add(hub.api, 'first place password');
    await add(second.api, 'second place password');
  });
  afterAll(() => hub?.close());

  it('an email used at two restaurants answers like any failure unless the password is right', async () => {
    expectError(await login(hub, '198.51.100.1', { email: 'sam@example.com', password: 'a wrong password' }), 401, 'sign_in_failed');
    expectError(await login(hub, '198.51.100.1', { email: 'nobody@example.com', password: 'a wrong password' }), 401, 'sign_in_failed');
    // the right password picks its restaurant
    const second = await login(hub, '198.51.100.1', { email: 'sam@example.com', password: 'second place password' });
    expect(second.status).toBe(200);
    expect(second.body.restaurant.name).toBe('second-place');
    expect((await login(hub, '198.51.100.1', { email: 'sam@example.com', password: 'first place password' })).body.restaurant.name).toBe('Test Bistro');
  }, SLOW);

  it('wrong passwords slow that address at that account, with a growing wait, and lock no one out', async () => {
    const account = { email: 'sam@example.com', password: 'guessing away!' };
    for (let i = 0; i < 5; i++) expectError(await login(hub, '203.0.113.9', account), 401, 'sign_in_failed');
    const first = await login(hub, '203.0.113.9', account);
    expectError(first, 429, 'rate_limited');
    const wait1 = Number(first.headers.get('retry-after'));
    expect(wait1).toBeGreaterThan(0);
    // the owner, from their own address, signs in all the same
    expect((await login(hub, '192.0.2.44', { email: 'sam@example.com', password: 'first place password' })).status).toBe(200);
    // after the wait, one more try; a wrong one makes the next wait longer
    hub.clock.advance(wait1 * 1000);
    expectError(await login(hub, '203.0.113.9', account), 401, 'sign_in_failed');
    const second = await login(hub, '203.0.113.9', account);
    expectError(second, 429, 'rate_limited');
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(wait1);
  }, SLOW);
});

// a cloud's several processes share a PostgreSQL: a run without one (TEST_DIALECTS=sqlite) leaves this out
describe.runIf(DIALECTS.includes('postgres'))('a cloud of several processes counts failed tries once for all of them', () => {
  let hub: TestHub;
  let other: Awaited<ReturnType<typeof startSecondServer>>;
  beforeAll(async () => {
    hub = await startHub('postgres', { config: { role: 'cloud', trustedProxies: ['127.0.0.1'] } });
    other = await startSecondServer(hub, undefined, { role: 'cloud', trustedProxies: ['127.0.0.1'] });
    const made = await hub.api.post('/v1/staff', { name: 'Sam', email: 'sam@example.com', role: 'manager' });
    expect((await hub.api.post(`/v1/staff/${made.body.id}/password`, { password: 'the right password' })).status).toBe(200);
  });
  afterAll(async () => {
    await other?.server.close();
    await hub?.close();
  });

  it('wrong passwords spread over two processes slow the guesser on both', async () => {
    const account = { email: 'sam@example.com', password: 'guessing away!' };
    const processes = [hub.url, other.url];
    const tryAt = (url: string) => new ApiClient(url, null).post('/v1/auth/login', account, { headers: { 'x-forwarded-for': '203.0.113.77' } });
    // five tries in all (the free ones), alternating behind the load balancer
    for (let i = 0; i < 5; i++) expectError(await tryAt(processes[i % 2]), 401, 'sign_in_failed');
    for (const url of processes) expectError(await tryAt(url), 429, 'rate_limited');
  }, SLOW);

  it('so do wrong pairing codes', async () => {
    const guest = (url: string) => new ApiClient(url, null);
    // the cloud's codes are twelve digits; wrong ones from one address pause its pairing, counted
    // across the cloud's processes (never node-wide: other addresses pair on, issue 40)
    let paused = false;
    for (let i = 0; i < 40 && !paused; i++) {
      const r = await guest(processes(i)).post('/public/devices/pair', { code: String(100000000000 + i) }, { headers: { 'x-forwarded-for': '198.51.100.7' } });
      paused = r.status === 429;
    }
    expect(paused).toBe(true);
    const elsewhere = await guest(hub.url).post('/public/devices/pair', { code: '100000000999' }, { headers: { 'x-forwarded-for': '198.51.100.8' } });
    expect(elsewhere.status).not.toBe(429);
    function processes(i: number) {
      return i % 2 === 0 ? hub.url : other.url;
    }
  }, SLOW);
});
