import type http from 'node:http';
import type Router from '@koa/router';
import type Koa from 'koa';
import type { Scheduler } from '../scheduler.ts';
import type { Services } from '../services.ts';

export interface FeatureHost {
  services: Services;
  scheduler: Scheduler;
  app: Koa;
  /** the API's router: a feature's own routes (outside the v1 registry) are added here */
  router: Router;
  http: http.Server;
}

/**
 * A feature plugs its long-lived parts into the one server: install() runs in
 * createServer (add services, scheduler jobs, WebSocket upgrade handlers), start() once
 * the server listens (dispatchers), stop() on close, before the database closes.
 */
export interface Feature {
  name: string;
  install?(host: FeatureHost): void;
  start?(host: FeatureHost): void | Promise<void>;
  stop?(host: FeatureHost): void | Promise<void>;
}
