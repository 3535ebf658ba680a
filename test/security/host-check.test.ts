import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { TestSocket } from '../realtime/socket.ts';

interface Answer {
  status: number;
  body: any;
  cookies: string[];
}

/** A request over loopback with a Host of our choosing, as a rebound page's browser sends it. */
function send(url: string, method: string, path: string, host: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      { host: u.hostname, port: u.port, method, path, headers: { host, ...(data ? { 'content-type': 'application/json' } : {}), ...headers } },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : null, cookies: (res.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]) }));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

const form = { restaurant_name: 'Trattoria', timezone: 'UTC', currency: 'eur', owner_name: 'Ada', owner_email: 'ada@example.com', owner_password: 'correct horse battery' };

describe.each(DIALECTS)('the Host header (DNS rebinding) on %s', (dialect) => {
  let hub: TestHub;
  let port: string;
  beforeAll(async () => {
    hub = await startHub(dialect, { config: { allowedHosts: ['backoffice.lan'] } });
    port = new URL(hub.url).port;
  });
  afterAll(() => hub?.close());

  it('first-run setup from loopback under a foreign name is refused; a LAN address needs the code; localhost needs none', async () => {
    const rebound = await send(hub.url, 'POST', '/v1/auth/setup', `rebind.attacker.example:${port}`, form);
    expect(rebound.status).toBe(403);
    expect(rebound.body.error.code).toBe('host_not_allowed');
    expect(rebound.cookies).toEqual([]);
    // a name the hub has, but not the machine itself: the code is asked, as from any other device
    expect((await send(hub.url, 'GET', '/v1/auth/setup', `192.168.1.20:${port}`)).body.code_required).toBe(true);
    const lan = await send(hub.url, 'POST', '/v1/auth/setup', `192.168.1.20:${port}`, form);
    expect(lan.status).toBe(403);
    expect(lan.body.error.code).toBe('setup_code_required');
    expect((await hub.api.get('/v1/settings')).body.name).toBe('Test Bistro');
    expect((await send(hub.url, 'GET', '/v1/auth/setup', `localhost:${port}`)).body.code_required).toBe(false);
    const local = await send(hub.url, 'POST', '/v1/auth/setup', `localhost:${port}`, form);
    expect(local.status).toBe(201);
  });

  it('a session cookie counts only under one of the hub’s names', async () => {
    const login = await send(hub.url, 'POST', '/v1/auth/login', `127.0.0.1:${port}`, { email: 'ada@example.com', password: 'correct horse battery' });
    expect(login.status).toBe(200);
    const cookie = login.cookies.join('; ');
    const known = [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `192.168.1.20:${port}`, `backoffice.lan:${port}`, 'backoffice.lan'];
    for (const host of known) expect((await send(hub.url, 'GET', '/v1/auth/session', host, undefined, { cookie })).status, host).toBe(200);
    for (const host of [`rebind.attacker.example:${port}`, 'evil.example', `127.0.0.1.nip.io:${port}`]) {
      const refused = await send(hub.url, 'GET', '/v1/menu_items', host, undefined, { cookie });
      expect(refused.status, host).toBe(403);
      expect(refused.body.error.code).toBe('host_not_allowed');
    }
    // signing in under a foreign name is refused too: no cookie is ever set for it
    const foreign = await send(hub.url, 'POST', '/v1/auth/login', 'rebind.attacker.example', { email: 'ada@example.com', password: 'correct horse battery' });
    expect(foreign.status).toBe(403);
    expect(foreign.cookies).toEqual([]);
    // an API key is no cookie: a Host does not matter to it
    expect((await send(hub.url, 'GET', '/v1/menu_items', 'integration.example', undefined, { 'x-api-key': hub.keys.secret })).status).toBe(200);

    // the live feed: a rebound page is its own origin, so the origin check alone passes it
    const rebound = await TestSocket.open(hub.url, { headers: { cookie, host: 'rebind.attacker.example', origin: 'http://rebind.attacker.example' } });
    rebound.send({ type: 'auth', session: true });
    expect((await rebound.next()).data.code).toBe('not_signed_in');
    expect((await rebound.closed).code).toBe(4401);
    const ours = await TestSocket.open(hub.url, { headers: { cookie, host: `localhost:${port}`, origin: `http://localhost:${port}` } });
    ours.send({ type: 'auth', session: true });
    expect((await ours.next()).type).toBe('authenticated');
    ours.ws.close();
  });
});
