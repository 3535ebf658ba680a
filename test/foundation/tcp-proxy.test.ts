import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { TcpProxy } from '../helpers/tcp-proxy.ts';

/** The fault tests' TCP proxy itself: a cut armed for an answer breaks one, whatever came first. */
describe('the fault tests’ TCP proxy', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of closers.splice(0)) await c();
  });

  it('a cut armed for a long answer breaks the next one when the connection it met first closed short of it', async () => {
    // /small answers 100 bytes and closes its connection; /big answers 5,000
    const server = http.createServer((req, res) => {
      if (req.url === '/small') res.setHeader('connection', 'close');
      res.end('x'.repeat(req.url === '/small' ? 100 : 5000));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    closers.push(() => new Promise((r) => server.close(() => r())));
    const proxy = await TcpProxy.start((server.address() as AddressInfo).port);
    closers.push(() => proxy.close());

    const cut = proxy.dropMidResponse(1500);
    const small = await fetch(`${proxy.url}/small`);
    expect((await small.text()).length).toBe(100);
    await expect(fetch(`${proxy.url}/big`).then((r) => r.text())).rejects.toThrow();
    await cut;
    expect(proxy.dropped).toBe(1);
  });
});
