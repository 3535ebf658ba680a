import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../helpers/server.ts';
import { until } from '../helpers/until.ts';
import { SessionClient } from '../service/session-client.ts';
import { converged, startPair } from './helpers.ts';
import { seedMenu } from '../orders/fixtures.ts';

/**
 * Two homes, the server's half (docs/contributors/two-homes.md): devices learn the cloud's
 * address from the hub, the cloud answers CORS for the hub's origins only, a paired screen's
 * key works on the cloud, and a PIN session on a trusted tablet opens again on the cloud with a
 * one-use cloud pass (no second PIN).
 */
describe('two homes: what a device needs to carry on against the cloud', () => {
  let p: Awaited<ReturnType<typeof startPair>>;
  let tablet: SessionClient;
  let sam: string;
  let screenKey: string;
  let menu: Awaited<ReturnType<typeof seedMenu>>;
  const hubOrigin = () => p.hub.url;

  beforeAll(async () => {
    p = await startPair();
    menu = await seedMenu(p.hub);
    const mk = async (name: string, role: string, password: string, pin: string) => {
      const r = await p.hub.api.post('/v1/staff', { name, email: `${name.toLowerCase()}@example.com`, role });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      await p.hub.api.post(`/v1/staff/${r.body.id}/password`, { password });
      await p.hub.api.post(`/v1/staff/${r.body.id}/pin`, { pin });
      return r.body.id as string;
    };
    await mk('Mia', 'manager', 'manager password 1', '9753');
    sam = await mk('Sam', 'server', 'server password 1', '2468');
    tablet = new SessionClient(p.hub.url);
    await tablet.request('POST', '/v1/auth/login', { email: 'mia@example.com', password: 'manager password 1' });
    expect((await tablet.request('POST', '/v1/auth/pin_device')).status).toBe(200);
    await tablet.request('POST', '/v1/auth/logout');
    expect((await tablet.request('POST', '/v1/auth/pin', { staff: sam, pin: '2468' })).status).toBe(200);
    const made = await p.hub.api.post('/v1/devices/pairing_codes', { name: 'Grill screen', station: 'grill' });
    screenKey = (await p.hub.api.withKey(null).post('/public/devices/pair', { code: made.body.code })).body.key;
  }, 60_000);
  afterAll(() => p?.close());

  it('an unlinked hub names no cloud, and a cloud pass has nowhere to go', async () => {
    const homes = await tablet.request('GET', '/v1/homes');
    expect(homes.body).toEqual({ object: 'homes', role: 'hub', cloud_url: null, hub_caught_up: true, hub_answering: null });
    expect((await tablet.request('POST', '/v1/auth/cloud_pass')).status).toBe(409);
    expect((await p.hub.api.withKey(null).get('/public/homes')).body).toEqual({ object: 'public_homes', cloud_url: null, hub_caught_up: true });
  });

  it('once linked, the tablet and the screen learn the cloud’s address, and the cloud knows when the hub has caught up', { timeout: 60_000 }, async () => {
    await p.link();
    expect((await converged(p, 30_000)).ok).toBe(true);
    const screen = new ApiClient(p.hub.url, screenKey);
    const fromScreen = await until('the hub caught up', async () => {
      const r = await screen.get('/v1/homes');
      return r.body.hub_caught_up ? r : null;
    }, 20_000);
    expect(fromScreen.body).toMatchObject({ role: 'hub', cloud_url: p.cloud.url, hub_caught_up: true });
    expect((await tablet.request('GET', '/v1/homes')).body.cloud_url).toBe(p.cloud.url);
    // an integration's secret key is no staff device
    expect((await p.hub.api.get('/v1/homes')).status).toBe(403);
  });

  it("a guest's page learns the cloud's origin with no key, in an answer a cache may keep; the cloud names none", async () => {
    const atHub = await p.hub.api.withKey(null).get('/public/homes');
    expect(atHub.body).toEqual({ object: 'public_homes', cloud_url: new URL(p.cloud.url).origin, hub_caught_up: true });
    expect(atHub.headers.get('cache-control')).toBe('public, max-age=30');
    const atCloud = await new ApiClient(p.cloud.url, null).get('/public/homes');
    expect(atCloud.body).toEqual({ object: 'public_homes', cloud_url: null, hub_caught_up: null });
  });

  it('the cloud answers CORS for the hub’s origins only, and never with credentials', async () => {
    const preflight = (origin: string) =>
      fetch(`${p.cloud.url}/v1/orders`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-session-token, content-type' } });
    // the devices above reached the hub at its address: the hub told the cloud
    const ok = await until('the cloud learned the hub’s origin', async () => {
      const r = await preflight(hubOrigin());
      return r.headers.get('access-control-allow-origin') === hubOrigin() ? r : null;
    });
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-headers')).toMatch(/X-Session-Token/);
    expect(ok.headers.get('access-control-allow-credentials')).toBeNull();
    const other = await preflight('http://evil.example');
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const get = await fetch(`${p.cloud.url}/v1/homes`, { headers: { origin: 'http://evil.example', 'x-api-key': screenKey } });
    expect(get.headers.get('access-control-allow-origin')).toBeNull();
    // the hub answers no cross-origin call
    const atHub = await fetch(`${p.hub.url}/v1/orders`, { method: 'OPTIONS', headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST' } });
    expect(atHub.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('a paired screen’s key works on the cloud, which says the hub is answering', async () => {
    const onCloud = new ApiClient(p.cloud.url, screenKey);
    const homes = await until('the screen key reached the cloud', async () => {
      const r = await onCloud.get('/v1/homes', { headers: { origin: hubOrigin() } });
      return r.status === 200 ? r : null;
    });
    expect(homes.body).toEqual({ object: 'homes', role: 'cloud', cloud_url: null, hub_caught_up: null, hub_answering: true });
    expect(homes.headers.get('access-control-allow-origin')).toBe(hubOrigin());
    expect((await onCloud.get('/public/orders/kitchen')).status).toBe(200);
  });

  it('a PIN session opens again on the cloud with a one-use pass, no second PIN', async () => {
    const made = await tablet.request('POST', '/v1/auth/cloud_pass');
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body).toMatchObject({ object: 'cloud_pass', cloud_url: p.cloud.url });
    const cloud = new ApiClient(p.cloud.url, null);
    const redeemed = await cloud.post('/v1/auth/cloud_pass/redeem', { pass: made.body.pass }, { headers: { origin: hubOrigin() } });
    expect(redeemed.status, JSON.stringify(redeemed.body)).toBe(200);
    expect(redeemed.body.session).toMatchObject({ via: 'pin', staff: { id: sam }, restaurant: { id: p.hub.restaurant.id } });
    expect(redeemed.body.session.scopes).not.toContain('settings:write');
    const token = redeemed.body.token as string;
    // the token works by header, with no CSRF token and no cookie
    const asSam = { headers: { 'x-session-token': token, origin: hubOrigin() } };
    expect((await cloud.get('/v1/auth/session', asSam)).body.staff.id).toBe(sam);
    const order = await cloud.post('/v1/orders', { type: 'dine_in', items: [{ menu_item: menu.pasta, quantity: 1 }] }, asSam);
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    expect(order.body.server).toBe(sam);
    // a manager's scopes are not there
    expect((await cloud.post('/v1/staff', { name: 'Eve', email: 'eve@example.com', role: 'owner' }, asSam)).status).toBe(403);

    // the same pass again (a copy of it, a replay): refused
    expect((await cloud.post('/v1/auth/cloud_pass/redeem', { pass: made.body.pass })).status).toBe(401);
    // a pass altered in any way: refused
    const fresh = (await tablet.request('POST', '/v1/auth/cloud_pass')).body.pass as string;
    const [v, payload, mac] = fresh.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = `${v}.${Buffer.from(JSON.stringify({ ...claims, u: 'usr_someone_else' })).toString('base64url')}.${mac}`;
    expect((await cloud.post('/v1/auth/cloud_pass/redeem', { pass: forged })).status).toBe(401);
    expect((await cloud.post('/v1/auth/cloud_pass/redeem', { pass: `${v}.${payload}.${mac.slice(1)}x` })).status).toBe(401);
    // a pass past its 15 minutes: refused
    p.cloud.clock.advance(16 * 60_000);
    expect((await cloud.post('/v1/auth/cloud_pass/redeem', { pass: fresh })).status).toBe(401);
    p.cloud.clock.advance(-16 * 60_000);
    expect((await cloud.post('/v1/auth/cloud_pass/redeem', { pass: fresh })).status).toBe(200);
  });

  it('a password session gets no cloud pass', async () => {
    const manager = new SessionClient(p.hub.url);
    await manager.request('POST', '/v1/auth/login', { email: 'mia@example.com', password: 'manager password 1' });
    expect((await manager.request('POST', '/v1/auth/cloud_pass')).status).toBe(403);
    expect((await new SessionClient(p.hub.url).request('POST', '/v1/auth/cloud_pass')).status).toBe(401);
  });
});
