import type { AddressInfo } from 'node:net';
import http from 'node:http';
import Koa from 'koa';

/**
 * The yardstick: a bare Koa app answering one constant JSON body. Every http scenario is
 * measured as a ratio to this, run on the same machine in the same run, because absolute
 * figures on a shared 2-core box mean little.
 */
export async function startBaseline(body: unknown): Promise<{ url: string; close(): Promise<void> }> {
  const app = new Koa();
  app.use(async (ctx) => {
    ctx.body = body;
  });
  const server = http.createServer(app.callback());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((r) => {
      server.close(() => r());
      server.closeAllConnections();
    }),
  };
}
