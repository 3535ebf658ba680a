import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { TestSocket } from '../realtime/socket.ts';

describe.each(DIALECTS)('live sockets are limited per address (%s)', (dialect) => {
  let hub: TestHub;
  const open: TestSocket[] = [];
  // the cloud behind its proxy: the address is the one the proxy names
  const from = async (ip: string) => {
    const s = await TestSocket.open(hub.url, { headers: { 'x-forwarded-for': ip } });
    open.push(s);
    return s;
  };
  beforeAll(async () => {
    hub = await startHub(dialect, {
      config: { trustedProxies: ['127.0.0.1'], realtime: { maxSocketsPerAddress: 3 }, guestRateLimit: { perMinutePerIp: 3, perMinutePerRestaurant: 1000 } },
    });
  });
  afterAll(async () => {
    for (const s of open) s.ws.terminate();
    await hub?.close();
  });

  it('an address past its sockets is refused the upgrade (429); other addresses are not', async () => {
    for (let i = 0; i < 3; i++) await from('198.51.100.7');
    const refused = await from('198.51.100.7').then(
      () => null,
      (err: Error) => err.message,
    );
    expect(refused).toMatch(/429/);
    expect((await from('198.51.100.8')).ws.readyState).toBe(1);
  });

  it('guest socket authentication draws on the guest routes’ per-address budget', async () => {
    // three tries with tokens from one address spend its guest budget (3 a minute here)
    const sockets = [await from('192.0.2.50'), await from('192.0.2.50'), await from('192.0.2.50')];
    for (const s of sockets) {
      s.send({ type: 'auth', kind: 'qr', token: 'not-a-real-token' });
      expect((await s.next()).data.code).toBe('resource_missing');
      expect((await s.closed).code).toBe(4401);
    }
    const limited = await from('192.0.2.50');
    limited.send({ type: 'auth', kind: 'qr', token: 'not-a-real-token' });
    expect((await limited.next()).data.code).toBe('rate_limited');
    expect((await limited.closed).code).toBe(4429);
    // the same budget as a guest request's
    const page = await fetch(`${hub.url}/public/qr/not-a-real-token`, { headers: { 'x-forwarded-for': '192.0.2.50' } });
    expect(page.status).toBe(429);
  });
});
