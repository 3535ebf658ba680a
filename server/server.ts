import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import Koa from 'koa';
import { routes } from './api/routes.ts';
import { systemClock, type Clock } from './clock.ts';
import { defaultConfig, type Config } from './config.ts';
import type { Database } from './db/database.ts';
import { registerClock } from './db/hlc.ts';
import { ServerProcess } from './db/processes.ts';
import { Transactor } from './db/transact.ts';
import type { Feature, FeatureHost } from './features/feature.ts';
import { features as allFeatures } from './features/index.ts';
import { assembleRegistry } from './features/assemble.ts';
import { setSetupCode, setupCodeOf } from './auth/setup-code.ts';
import { errorMiddleware } from './http/error-middleware.ts';
import { corsMiddleware } from './http/cors.ts';
import { webApp } from './http/web-app.ts';
import { answerClientErrors } from './http/client-error.ts';
import { mountDocs } from './http/docs.ts';
import { mountRoutes } from './http/route.ts';
import { keepRouteMatches } from './http/route-matches.ts';
import { createLogger, type Logger } from './logger.ts';
import { requestIdMiddleware } from './http/request-id.ts';
import { Scheduler } from './scheduler.ts';
import type { Services } from './services.ts';

/** How long a closing server lets in-flight requests finish before it cuts their sockets. */
const CLOSE_GRACE_MS = 3_000;

export interface ServerOptions {
  database: Database;
  clock?: Clock;
  logger?: Logger;
  config?: Partial<Config>;
  /** start periodic jobs (node-cron); tests usually run jobs by hand instead */
  scheduler?: boolean;
  /** the first start's one-time setup code (default: a fresh random one); see setupCode() */
  setupCode?: string;
  /** the built back office (default app/web/dist) */
  webDist?: string;
  /** the features this server is made of (default: every one, server/features/index.ts); tests add their own */
  features?: readonly Feature[];
}

export interface ComandaServer {
  app: Koa;
  services: Services;
  scheduler: Scheduler;
  http: http.Server;
  /** the code a setup from another device than the hub itself must give (print it on the console) */
  setupCode(): string;
  listen(port?: number, host?: string): Promise<{ port: number; url: string }>;
  /** stop accepting, finish in-flight requests, stop jobs, close the database */
  close(): Promise<void>;
}

/** The one way to start comanda: the CLI, tests, benchmarks, desktop shell and cloud all call this. */
export function createServer(opts: ServerOptions): ComandaServer {
  const config: Config = { ...defaultConfig, ...opts.config };
  const logger = opts.logger ?? createLogger();
  const { db, dialect } = opts.database;
  const clock = opts.clock ?? systemClock;
  // change stamps (sync's merge order) follow the same clock as everything else
  registerClock(db, () => clock.now());
  const features = opts.features ?? allFeatures;
  const services: Services = {
    db,
    dialect,
    databaseUrl: opts.database.url,
    // One writer on SQLite: units of work arriving together commit together.
    tx: new Transactor(db, { groupCommit: dialect === 'sqlite' }),
    clock,
    logger,
    config,
    process: new ServerProcess(db, dialect, opts.database.url, logger),
    registry: assembleRegistry(features),
  };

  if (opts.setupCode) setSetupCode(services, opts.setupCode);

  const app = new Koa();
  app.proxy = false;
  app.silent = true;
  // every answer is what its Content-Type says, errors included: a browser never guesses (no
  // JSON or SVG taken for a page or a script)
  app.use(async (ctx, next) => {
    try {
      await next();
    } finally {
      ctx.set('X-Content-Type-Options', 'nosniff');
    }
  });
  app.use(corsMiddleware(services));
  app.use(requestIdMiddleware(logger));
  app.use(errorMiddleware(logger));
  // the back office (app/web) is static files; everything it does goes through the API below
  app.use(
    webApp(opts.webDist, async () =>
      config.role === 'hub' ? ((await db.selectFrom('sync_link').select('cloud_url').where('id', '=', 1).executeTakeFirst())?.cloud_url ?? null) : null,
    ),
  );
  const router = new Router();
  mountRoutes(router, services, routes);
  mountDocs(router, routes);
  keepRouteMatches(router);
  app.use(router.routes());
  app.use(router.allowedMethods());

  const scheduler = new Scheduler(services);
  const server = http.createServer(app.callback());
  server.keepAliveTimeout = 65_000;
  answerClientErrors(server);
  const featureHost: FeatureHost = { services, scheduler, app, router, http: server };
  for (const f of features) f.install?.(featureHost);

  let closing: Promise<void> | null = null;
  return {
    app,
    services,
    scheduler,
    http: server,
    setupCode: () => setupCodeOf(services),
    async listen(port = 0, host = '127.0.0.1') {
      // before the first request: what a process that died (kill -9) held is free again
      await services.process.sweep();
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => resolve());
      });
      for (const f of features) await f.start?.(featureHost);
      if (opts.scheduler) scheduler.start();
      const addr = server.address() as AddressInfo;
      return { port: addr.port, url: `http://${host.includes(':') ? `[${host}]` : host}:${addr.port}` };
    },
    close() {
      closing ??= (async () => {
        await scheduler.stop();
        for (const f of [...features].reverse()) await f.stop?.(featureHost);
        if (server.listening) {
          await new Promise<void>((resolve) => {
            // a keep-alive connection whose request finishes after this point would
            // otherwise stay open until its idle timeout (a minute): close each as it idles
            const sweep = setInterval(() => server.closeIdleConnections(), 100);
            // a socket opened but never sent a request is not idle to Node: it would be held
            // until the headers timeout; in-flight requests have had their grace by then
            const cutoff = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
            server.close(() => {
              clearInterval(sweep);
              clearTimeout(cutoff);
              resolve();
            });
            server.closeIdleConnections();
          });
        }
        await services.process.close();
        await opts.database.close();
      })();
      return closing;
    },
  };
}
