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

  it('a cut armed for answers to one path breaks one of those, not the next answer to another path on the same kept-alive connection', async () => {
    // every answer 2,000 bytes but /small's (100); connections kept alive
    const server = http.createServer((req, res) => res.end('x'.repeat(req.url === '/pull/small' ? 100 : 2000)));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    closers.push(() => new Promise((r) => server.close(() => r())));
    const proxy = await TcpProxy.start((server.address() as AddressInfo).port);
    closers.push(() => proxy.close());
    // one socket, so every request goes on the same connection, one after another
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    closers.push(async () => agent.destroy());
    const get = (path: string) =>
      new Promise<number>((resolve, reject) => {
        http
          .get(`${proxy.url}${path}`, { agent }, (res) => {
            let n = 0;
            res.on('data', (c: Buffer) => (n += c.length));
            res.on('end', () => resolve(n));
            res.on('error', reject);
          })
          .on('error', reject);
      });

    const pullCut = proxy.dropMidResponse(1500, { path: '/pull' });
    const pushCut = proxy.dropMidResponse(120, { path: '/push' });
    expect(await get('/pull/small')).toBe(100);
    // the push that comes next on that connection meets the push's cut, not the pull's
    await expect(get('/push')).rejects.toThrow();
    await pushCut;
    expect(proxy.dropped).toBe(1);
    expect(await get('/other')).toBe(2000);
    expect(proxy.dropped).toBe(1);
    await expect(get('/pull/big')).rejects.toThrow();
    await pullCut;
    expect(proxy.dropped).toBe(2);
  });
});
