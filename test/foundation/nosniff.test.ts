import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type TestHub } from '../helpers/server.ts';

describe('X-Content-Type-Options: nosniff on every answer', () => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub('sqlite');
  });
  afterAll(() => hub.close());

  it('on JSON, errors of every kind, the docs and the web app', async () => {
    for (const [path, key] of [
      ['/v1/menu_items', hub.keys.secret],
      ['/v1/menu_items', null],
      ['/v1/menu_items/mi_nope', hub.keys.secret],
      ['/v1/no-such-route', hub.keys.secret],
      ['/public/pricing', null],
      ['/openapi.json', null],
      ['/app/', null],
    ] as const) {
      const res = await fetch(hub.url + path, { headers: key ? { 'x-api-key': key } : {} });
      await res.arrayBuffer();
      expect(res.headers.get('x-content-type-options'), `${path} (${res.status})`).toBe('nosniff');
    }
    const bad = await fetch(`${hub.url}/v1/menu_items`, { method: 'POST', headers: { 'x-api-key': hub.keys.secret, 'content-type': 'application/json' }, body: '{' });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('on the answer to a request too large for the HTTP parser (431)', async () => {
    const port = Number(new URL(hub.url).port);
    const raw = await new Promise<string>((resolve, reject) => {
      const sock = net.connect(port, '127.0.0.1', () => sock.write(`GET /v1/menu_items?${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`));
      let got = '';
      sock.on('data', (d) => (got += d));
      sock.on('end', () => resolve(got));
      sock.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 431/);
    expect(raw.toLowerCase()).toContain('x-content-type-options: nosniff');
  });
});
