import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/assert.ts';
import { DIALECTS } from '../helpers/db.ts';
import { ApiClient, startHub, startSecondServer, type TestHub } from '../helpers/server.ts';
import { actorFor, placeOrder } from '../realtime/fixtures.ts';
import { TestSocket } from '../realtime/socket.ts';

/** Signs a person in as the back office does; answers the cookie header and the CSRF token. */
async function signIn(url: string, email: string, password: string) {
  const res = await fetch(`${url}/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  expect(res.status).toBe(200);
  const cookies = res.headers.getSetCookie().map((c) => c.split(';')[0]);
  const body: any = await res.json();
  return { cookie: cookies.join('; '), csrf: body.csrf_token as string, sessionId: body.id as string, url };
}
type Signed = Awaited<ReturnType<typeof signIn>>;

const asSession = (s: Signed, method: string, path: string, body?: unknown) =>
  fetch(s.url + path, {
    method,
    headers: { cookie: s.cookie, 'x-csrf-token': s.csrf, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as any, headers: r.headers }));

async function sessionSocket(url: string, s: Signed): Promise<TestSocket> {
  const host = new URL(url).host;
  const ws = await TestSocket.open(url, { headers: { cookie: s.cookie, origin: `http://${host}` } });
  ws.send({ type: 'auth', session: true });
  expect((await ws.next()).type).toBe('authenticated');
  expect((await ws.subscribe(['orders']))[0].type).toBe('subscribed');
  return ws;
}

async function keySocket(url: string, key: string): Promise<TestSocket> {
  const ws = await TestSocket.open(url);
  expect((await ws.auth(key)).type).toBe('authenticated');
  expect((await ws.subscribe(['orders']))[0].type).toBe('subscribed');
  return ws;
}

/**
 * The socket is cut off before anything later is sent: an order placed after the revocation
 * never reaches it; what comes is the refusal, then the close.
 */
async function expectCutOff(hub: TestHub, ws: TestSocket, code: string) {
  await placeOrder(hub.server.services, actorFor(hub.server.services, hub.restaurant.id), { lines: [{ station: 'kitchen' }] });
  const next = await ws.next();
  expect(next).toMatchObject({ type: 'error', data: { code } });
  expect((await ws.closed).code).toBe(4401);
  expect(ws.messages.filter((m) => m.type === 'order')).toEqual([]);
}

// the safety nets (heartbeat recheck, log poll) are pushed out of reach: only the revocation itself may close
const quiet = { realtime: { heartbeatMs: 3_600_000, pollMs: 3_600_000 } };

async function person(hub: TestHub, role: string) {
  const email = `${role}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const made = await hub.api.post('/v1/staff', { name: role, email, role });
  expect(made.status).toBe(201);
  expect((await hub.api.post(`/v1/staff/${made.body.id}/password`, { password: 'long enough password' })).status).toBe(200);
  return { id: made.body.id as string, signIn: () => signIn(hub.url, email, 'long enough password') };
}

describe.each(DIALECTS)('revocation closes live sockets at once (%s)', (dialect) => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub(dialect, { config: quiet });
  });
  afterAll(() => hub?.close());

  it('a revoked API key: its socket closes, and the key is refused at once when it comes back', async () => {
    const made = await hub.api.post('/v1/api_keys', { name: 'pass screen', type: 'widget' });
    const ws = await keySocket(hub.url, made.body.secret);
    expect((await hub.api.delete(`/v1/api_keys/${made.body.id}`)).status).toBe(200);
    await expectCutOff(hub, ws, 'api_key_invalid');
    const again = await TestSocket.open(hub.url);
    expect((await again.auth(made.body.secret)).data.code).toBe('api_key_invalid');
    expect((await new ApiClient(hub.url, made.body.secret).get('/public/orders/active')).status).toBe(401);
  });

  it('an unpaired device', async () => {
    const code = (await hub.api.post('/v1/devices/pairing_codes', { name: 'Grill' })).body.code;
    const paired = (await hub.api.withKey(null).post('/public/devices/pair', { code })).body;
    const ws = await keySocket(hub.url, paired.key);
    expect((await hub.api.delete(`/v1/devices/${paired.device.id}`)).status).toBe(200);
    await expectCutOff(hub, ws, 'api_key_invalid');
  });

  it('a session signed out elsewhere, and one signing itself out', async () => {
    const manager = await person(hub, 'manager');
    const s = await manager.signIn();
    const ws = await sessionSocket(hub.url, s);
    expect((await hub.api.delete(`/v1/sessions/${s.sessionId}`)).status).toBe(200);
    await expectCutOff(hub, ws, 'not_signed_in');
    const s2 = await manager.signIn();
    const ws2 = await sessionSocket(hub.url, s2);
    expect((await asSession(s2, 'POST', '/v1/auth/logout')).status).toBe(200);
    await expectCutOff(hub, ws2, 'not_signed_in');
  });

  it('a person deactivated', async () => {
    const server = await person(hub, 'server');
    const ws = await sessionSocket(hub.url, await server.signIn());
    expect((await hub.api.delete(`/v1/staff/${server.id}`)).status).toBe(200);
    await expectCutOff(hub, ws, 'not_signed_in');
  });

  it('a person demoted to a role without sign-in; moved back, their old session stays dead', async () => {
    const manager = await person(hub, 'manager');
    const s = await manager.signIn();
    const ws = await sessionSocket(hub.url, s);
    expect((await hub.api.patch(`/v1/staff/${manager.id}`, { role: 'staff' })).status).toBe(200);
    await expectCutOff(hub, ws, 'not_signed_in');
    expect((await hub.api.patch(`/v1/staff/${manager.id}`, { role: 'manager' })).status).toBe(200);
    expect((await asSession(s, 'GET', '/v1/auth/session')).status).toBe(401);
    // demoted to a role that can do less: signed out too; promoted: kept
    const s2 = await manager.signIn();
    expect((await hub.api.patch(`/v1/staff/${manager.id}`, { role: 'server' })).status).toBe(200);
    expect((await asSession(s2, 'GET', '/v1/auth/session')).status).toBe(401);
    const s3 = await manager.signIn();
    expect((await hub.api.patch(`/v1/staff/${manager.id}`, { role: 'manager' })).status).toBe(200);
    expect((await asSession(s3, 'GET', '/v1/auth/session')).body.role).toBe('manager');
  });

  it('a role ends only sessions of roles below it; the owner ends anyone’s', async () => {
    const owner = await person(hub, 'owner');
    const managerA = await person(hub, 'manager');
    const managerB = await person(hub, 'manager');
    const waiter = await person(hub, 'server');
    const [o, a, b, w] = [await owner.signIn(), await managerA.signIn(), await managerB.signIn(), await waiter.signIn()];
    expectError(await asSession(a, 'DELETE', `/v1/sessions/${o.sessionId}`), 403, 'insufficient_scope');
    expectError(await asSession(a, 'DELETE', `/v1/sessions/${b.sessionId}`), 403, 'insufficient_scope');
    expect((await asSession(o, 'GET', '/v1/auth/session')).status).toBe(200);
    expect((await asSession(a, 'DELETE', `/v1/sessions/${w.sessionId}`)).status).toBe(200);
    expect((await asSession(w, 'GET', '/v1/auth/session')).status).toBe(401);
    expect((await asSession(o, 'DELETE', `/v1/sessions/${b.sessionId}`)).status).toBe(200);
    // one's own session, whatever the role
    expect((await asSession(a, 'DELETE', `/v1/sessions/${a.sessionId}`)).status).toBe(200);
    // a key that lacks the owner's scopes cannot end the owner's session
    const staffKey = new ApiClient(hub.url, (await hub.api.post('/v1/api_keys', { name: 'staff', scopes: ['staff:read', 'staff:write'] })).body.secret);
    expectError(await staffKey.delete(`/v1/sessions/${o.sessionId}`), 403, 'insufficient_scope');
  });
});

describe.each(DIALECTS.filter((d) => d === 'postgres'))('revocation reaches every process (%s)', (dialect) => {
  let hub: TestHub;
  let other: Awaited<ReturnType<typeof startSecondServer>>;
  beforeAll(async () => {
    hub = await startHub(dialect, { config: quiet });
    other = await startSecondServer(hub);
  });
  afterAll(async () => {
    await other?.server.close();
    await hub?.close();
  });

  it('a key revoked through one process closes its socket on the other', async () => {
    const made = await hub.api.post('/v1/api_keys', { name: 'screen', type: 'widget' });
    const ws = await keySocket(new URL(other.api.baseUrl).origin, made.body.secret);
    expect((await hub.api.delete(`/v1/api_keys/${made.body.id}`)).status).toBe(200);
    await expectCutOff(hub, ws, 'api_key_invalid');
  });

  it('a session ended through one process closes its socket on the other', async () => {
    const manager = await person(hub, 'manager');
    const s = await manager.signIn();
    const ws = await sessionSocket(other.api.baseUrl, s);
    expect((await hub.api.delete(`/v1/sessions/${s.sessionId}`)).status).toBe(200);
    await expectCutOff(hub, ws, 'not_signed_in');
  });
});
