import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestSocket } from '../realtime/socket.ts';
import { expectError } from '../helpers/assert.ts';
import { DIALECTS } from '../helpers/db.ts';
import { ApiClient, startHub, type TestHub } from '../helpers/server.ts';

/** A browser-like client: keeps the cookies it is given and echoes the CSRF cookie as the page does. */
class SessionClient {
  cookies = new Map<string, string>();
  constructor(
    readonly url: string,
    readonly headers: Record<string, string> = {},
  ) {}
  get csrf() {
    return this.cookies.get('comanda_csrf') ?? '';
  }
  async request(method: string, path: string, body?: unknown, opts: { csrf?: boolean; headers?: Record<string, string> } = {}) {
    const headers: Record<string, string> = { ...this.headers, ...opts.headers };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (method !== 'GET' && opts.csrf !== false) headers['x-csrf-token'] = this.csrf;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(this.url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    for (const c of res.headers.getSetCookie()) {
      const [pair, ...attrs] = c.split(';');
      const [k, v] = pair.split('=');
      if (/max-age=0|expires=Thu, 01 Jan 1970/i.test(attrs.join(';')) || v === '') this.cookies.delete(k);
      else this.cookies.set(k, v);
    }
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers, setCookies: res.headers.getSetCookie() };
  }
}

describe.each(DIALECTS)('back-office sessions (%s)', (dialect) => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub(dialect, { config: { backOffice: { sessionIdleSeconds: 3600, sessionMaxSeconds: 7200, signInFailuresPerAccount: 3, signInFailuresPerIp: 1000, signInWindowSeconds: 900 } } });
  });
  afterAll(() => hub.close());

  // remote: any address but loopback, as a LAN device would come (an X-Forwarded-For makes the hub treat it so)
  const lan = () => new SessionClient(hub.url, { 'x-forwarded-for': '192.168.1.50' });

  it('first start: setup is needed, refused from the LAN without the code, done from the hub itself, then closed', async () => {
    const anon = new SessionClient(hub.url);
    expect((await anon.request('GET', '/v1/auth/setup')).body).toMatchObject({ required: true, code_required: false });
    const form = { restaurant_name: 'Trattoria Uno', timezone: 'Europe/Rome', currency: 'EUR', language: 'it', owner_name: 'Ada', owner_email: 'Ada@Example.com', owner_password: 'correct horse battery' };
    const remote = lan();
    expect((await remote.request('GET', '/v1/auth/setup')).body.code_required).toBe(true);
    expectError(await remote.request('POST', '/v1/auth/setup', form), 403, 'setup_code_required');
    expectError(await remote.request('POST', '/v1/auth/setup', { ...form, setup_code: 'AAAA-BBBB-CCCC' }), 403, 'setup_code_required');
    expectError(await remote.request('POST', '/v1/auth/setup', { ...form, setup_code: 'AAAA-BBBB-CCCD' }), 403, 'setup_code_required');
    // the guessing device is stopped; the hub itself is not
    expectError(await remote.request('POST', '/v1/auth/setup', { ...form, setup_code: 'AAAA-BBBB-CCCE' }), 429, 'rate_limited');
    const done = await anon.request('POST', '/v1/auth/setup', form);
    expect(done.status).toBe(201);
    expect(done.body).toMatchObject({ role: 'owner', staff: { email: 'ada@example.com', name: 'Ada' }, restaurant: { name: 'Trattoria Uno', currency: 'eur', timezone: 'Europe/Rome', language: 'it' } });
    const session = done.setCookies.find((c) => c.startsWith('comanda_session='))!;
    expect(session).toMatch(/HttpOnly/i);
    expect(session).toMatch(/SameSite=Strict/i);
    expect(session).not.toMatch(/Secure/i); // plain http on the LAN
    expect(done.setCookies.find((c) => c.startsWith('comanda_csrf='))).not.toMatch(/HttpOnly/i);
    // the provisioned restaurant was taken over, not a second one made
    expect((await hub.api.get('/v1/settings')).body).toMatchObject({ name: 'Trattoria Uno', currency: 'eur' });
    expect((await anon.request('GET', '/v1/auth/setup')).body.required).toBe(false);
    expectError(await anon.request('POST', '/v1/auth/setup', form), 409, 'state_conflict');
  });

  it('the setup code printed on the console works from another device', async () => {
    const other = await startHub(dialect);
    try {
      const remote = new SessionClient(other.url, { 'x-forwarded-for': '10.0.0.9' });
      const res = await remote.request('POST', '/v1/auth/setup', {
        restaurant_name: 'Remote',
        timezone: 'UTC',
        currency: 'usd',
        owner_name: 'Bo',
        owner_email: 'bo@example.com',
        owner_password: 'a long enough pass',
        setup_code: other.server.setupCode().toLowerCase(),
      });
      expect(res.status).toBe(201);
      expect((await remote.request('GET', '/v1/auth/session')).body.staff.email).toBe('bo@example.com');
    } finally {
      await other.close();
    }
  });

  it('marks the cookies Secure when a trusted proxy says the browser came over https', async () => {
    const proxied = await startHub(dialect, { config: { trustedProxies: ['127.0.0.1'] } });
    try {
      const lan = { 'x-forwarded-for': '192.168.1.7' };
      const setup = { restaurant_name: 'Cloud', timezone: 'UTC', currency: 'eur', owner_name: 'Cy', owner_email: 'cy@example.com', owner_password: 'cloud password 1', setup_code: proxied.server.setupCode() };
      await new SessionClient(proxied.url, lan).request('POST', '/v1/auth/setup', setup);
      const https = await new SessionClient(proxied.url, { ...lan, 'x-forwarded-proto': 'https' }).request('POST', '/v1/auth/login', { email: 'cy@example.com', password: 'cloud password 1' });
      expect(https.setCookies.every((c) => /;\s*secure/i.test(c))).toBe(true);
      const http = await new SessionClient(proxied.url, lan).request('POST', '/v1/auth/login', { email: 'cy@example.com', password: 'cloud password 1' });
      expect(http.setCookies.some((c) => /;\s*secure/i.test(c))).toBe(false);
    } finally {
      await proxied.close();
    }
  });

  it('signs in, reads the API through the session, and a write needs the CSRF token', async () => {
    const owner = new SessionClient(hub.url);
    expectError(await owner.request('POST', '/v1/auth/login', { email: 'ada@example.com', password: 'wrong password!' }), 401, 'sign_in_failed');
    expectError(await owner.request('POST', '/v1/auth/login', { email: 'nobody@example.com', password: 'wrong password!' }), 401, 'sign_in_failed');
    const ok = await owner.request('POST', '/v1/auth/login', { email: ' ADA@example.com', password: 'correct horse battery' });
    expect(ok.status).toBe(200);
    expect(ok.body.scopes).toContain('api_keys:write');
    expect((await owner.request('GET', '/v1/menu_categories')).status).toBe(200);
    // no token, a wrong token: refused before anything is read or written
    expectError(await owner.request('POST', '/v1/menu_categories', { name: 'Starters' }, { csrf: false }), 403, 'csrf_token_invalid');
    expectError(await owner.request('POST', '/v1/menu_categories', { name: 'Starters' }, { headers: { 'x-csrf-token': 'forged' }, csrf: false }), 403, 'csrf_token_invalid');
    // a cross-site form post (urlencoded, no token) is refused as such, not as a bad body
    const form = await fetch(`${hub.url}/v1/menu_categories`, {
      method: 'POST',
      headers: { cookie: [...owner.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'content-type': 'application/x-www-form-urlencoded', origin: 'http://evil.example' },
      body: 'name=Pwned',
    });
    expect(form.status).toBe(403);
    expect(((await form.json()) as any).error.code).toBe('csrf_token_invalid');
    expect((await hub.api.get('/v1/menu_categories')).body.data).toHaveLength(0);
    const made = await owner.request('POST', '/v1/menu_categories', { name: 'Starters' });
    expect(made.status).toBe(201);
  });

  it('roles limit the session through the API’s own scopes: a server sees no keys and no pay rates, kitchen only orders and menu', async () => {
    const owner = new SessionClient(hub.url);
    await owner.request('POST', '/v1/auth/login', { email: 'ada@example.com', password: 'correct horse battery' });
    const people: Record<string, string> = {};
    for (const role of ['server', 'kitchen', 'manager']) {
      const made = await owner.request('POST', '/v1/staff', { name: role, email: `${role}@example.com`, role, hourly_rate: 1500 });
      expect(made.status).toBe(201);
      people[role] = made.body.id;
      expect((await owner.request('POST', `/v1/staff/${made.body.id}/password`, { password: `${role} password 1` })).body.has_password).toBe(true);
    }
    const server = new SessionClient(hub.url);
    expect((await server.request('POST', '/v1/auth/login', { email: 'server@example.com', password: 'server password 1' })).body.role).toBe('server');
    expectError(await server.request('GET', '/v1/api_keys'), 403, 'insufficient_scope');
    expectError(await server.request('GET', '/v1/staff'), 403, 'insufficient_scope');
    expectError(await server.request('POST', '/v1/api_keys', { name: 'x' }), 403, 'insufficient_scope');
    expect((await server.request('GET', '/v1/orders')).status).toBe(200);
    expect((await server.request('GET', '/public/orders/active')).status).toBe(200);
    const kitchen = new SessionClient(hub.url);
    await kitchen.request('POST', '/v1/auth/login', { email: 'kitchen@example.com', password: 'kitchen password 1' });
    expectError(await kitchen.request('GET', '/v1/reservations'), 403, 'insufficient_scope');
    expect((await kitchen.request('GET', '/public/orders/kitchen')).status).toBe(200);
    // a manager cannot make an owner, reset an owner, nor touch keys
    const manager = new SessionClient(hub.url);
    await manager.request('POST', '/v1/auth/login', { email: 'manager@example.com', password: 'manager password 1' });
    expectError(await manager.request('PATCH', `/v1/staff/${people.server}`, { role: 'owner' }), 403, 'insufficient_scope');
    const ownerId = (await owner.request('GET', '/v1/auth/session')).body.staff.id;
    expectError(await manager.request('POST', `/v1/staff/${ownerId}/password`, { password: 'taken over now' }), 403, 'insufficient_scope');
    expect((await manager.request('PATCH', `/v1/staff/${people.server}`, { hourly_rate: 1600 })).status).toBe(200);
    // a role change applies at once; deactivating signs the person out everywhere
    expect((await owner.request('PATCH', `/v1/staff/${people.kitchen}`, { role: 'server' })).status).toBe(200);
    expect((await kitchen.request('GET', '/v1/reservations')).status).toBe(200);
    expect((await owner.request('DELETE', `/v1/staff/${people.server}`)).body.is_active).toBe(false);
    expectError(await server.request('GET', '/v1/orders'), 401, 'api_key_missing');
    expectError(await server.request('POST', '/v1/auth/login', { email: 'server@example.com', password: 'server password 1' }), 401, 'sign_in_failed');
  });

  it('sessions are listed and revocable, end on sign-out, and expire when idle', async () => {
    const owner = new SessionClient(hub.url);
    await owner.request('POST', '/v1/auth/login', { email: 'ada@example.com', password: 'correct horse battery' });
    const tablet = new SessionClient(hub.url);
    await tablet.request('POST', '/v1/auth/login', { email: 'manager@example.com', password: 'manager password 1' });
    const mine = (await tablet.request('GET', '/v1/auth/session')).body.id;
    const list = await owner.request('GET', '/v1/sessions');
    expect(list.body.data.map((s: any) => s.id)).toContain(mine);
    expect((await owner.request('DELETE', `/v1/sessions/${mine}`)).body.revoked).toBe(true);
    expectError(await tablet.request('GET', '/v1/auth/session'), 401, 'not_signed_in');
    // sign-out: cookies cleared, the old token dead even if kept
    const kept = new Map(owner.cookies);
    const out = await owner.request('POST', '/v1/auth/logout');
    expect(out.body.signed_out).toBe(true);
    expect(owner.cookies.has('comanda_session')).toBe(false);
    owner.cookies = kept;
    expectError(await owner.request('GET', '/v1/auth/session'), 401, 'not_signed_in');
    // idle past the configured hour (the hub's clock)
    const idle = new SessionClient(hub.url);
    await idle.request('POST', '/v1/auth/login', { email: 'ada@example.com', password: 'correct horse battery' });
    hub.clock.advance(3601 * 1000);
    expectError(await idle.request('GET', '/v1/menu_categories'), 401, 'api_key_missing');
  });

  it('sign-in is limited per account: the right password waits too once the limit is reached', async () => {
    const c = new SessionClient(hub.url);
    for (let i = 0; i < 3; i++) expectError(await c.request('POST', '/v1/auth/login', { email: 'manager@example.com', password: `guess ${i} guess` }), 401, 'sign_in_failed');
    const limited = await c.request('POST', '/v1/auth/login', { email: 'manager@example.com', password: 'manager password 1' });
    expectError(limited, 429, 'rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // another account from the same address is not held back
    expect((await c.request('POST', '/v1/auth/login', { email: 'ada@example.com', password: 'correct horse battery' })).status).toBe(200);
  });

  it('API keys: created once in full, listed without the secret, work, and stop when revoked', async () => {
    const owner = new SessionClient(hub.url);
    await owner.request('POST', '/v1/auth/login', { email: 'ada@example.com', password: 'correct horse battery' });
    const made = await owner.request('POST', '/v1/api_keys', { name: 'Website', scopes: ['menu:read'] });
    expect(made.status).toBe(201);
    expect(made.body.secret).toMatch(/^sk_live_/);
    const listed = await owner.request('GET', '/v1/api_keys');
    expect(JSON.stringify(listed.body)).not.toContain(made.body.secret);
    const key = new ApiClient(hub.url, made.body.secret);
    expect((await key.get('/v1/menu_categories')).status).toBe(200);
    expectError(await key.get('/v1/orders'), 403, 'insufficient_scope');
    // a key cannot mint a broader key
    expectError(await key.post('/v1/api_keys', { name: 'more' }), 403, 'insufficient_scope');
    expect((await owner.request('DELETE', `/v1/api_keys/${made.body.id}`)).body.revoked_at).toBeGreaterThan(0);
    const widget = await owner.request('POST', '/v1/api_keys', { name: 'Pass', type: 'widget' });
    expect(widget.body.secret).toMatch(/^wk_live_/);
    expect(widget.body.scopes).toEqual(['orders:read', 'orders:write']);
  });

  it('the live feed takes the session from the connection’s cookie, from our own pages only', async () => {
    const owner = new SessionClient(hub.url);
    await owner.request('POST', '/v1/auth/login', { email: 'ada@example.com', password: 'correct horse battery' });
    const cookie = [...owner.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const host = new URL(hub.url).host;
    const ws = await TestSocket.open(hub.url, { headers: { cookie, origin: `http://${host}` } });
    ws.send({ type: 'auth', session: true });
    expect((await ws.next()).data).toMatchObject({ key_type: 'session', role: 'owner' });
    ws.send({ type: 'subscribe', topics: ['orders'] });
    expect((await ws.next()).type).toBe('subscribed');
    ws.ws.close();
    const foreign = await TestSocket.open(hub.url, { headers: { cookie, origin: 'http://evil.example' } });
    foreign.send({ type: 'auth', session: true });
    expect((await foreign.next()).data.code).toBe('not_signed_in');
    expect((await foreign.closed).code).toBe(4401);
  });

  it('serves the built back office: the page revalidated, hashed files cached a year, compressed', async () => {
    const root = await fetch(`${hub.url}/`, { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/app/');
    const page = await fetch(`${hub.url}/app/orders/ord_123`, { headers: { 'accept-encoding': 'br' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    const html = await page.text();
    const asset = /src="(\/app\/assets\/[^"]+\.js)"/.exec(html)![1];
    const js = await fetch(hub.url + asset, { headers: { 'accept-encoding': 'gzip' } });
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(js.headers.get('content-encoding')).toBe('gzip');
    const again = await fetch(hub.url + asset, { headers: { 'if-none-match': js.headers.get('etag')! } });
    expect(again.status).toBe(304);
    // nothing from another origin: no CDN, no web font
    expect(html).not.toMatch(/https?:\/\//);
    expect((await fetch(`${hub.url}/app/assets/missing.js`)).status).toBe(404);
  });
});
