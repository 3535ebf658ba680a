import type http from 'node:http';
import type Router from '@koa/router';
import type Koa from 'koa';
import type { Scope } from '../auth/scopes.ts';
import type { OrderHook } from '../domain/orders/hooks.ts';
import type { EventHook } from '../domain/events/emit.ts';
import type { ExpandableDef } from '../http/expand.ts';
import type { GuestOrderView } from '../realtime/changes.ts';
import type { GuestLimits, GuestTokenResolver } from '../realtime/guest-tokens.ts';
import type { RowFeed } from '../realtime/topics.ts';
import type { Scheduler } from '../scheduler.ts';
import type { Services } from '../services.ts';
import type { RemoteBatchHook } from '../../sync/apply-context.ts';

export interface FeatureHost {
  services: Services;
  scheduler: Scheduler;
  app: Koa;
  /** the API's router: a feature's own routes (outside the v1 registry) are added here */
  router: Router;
  http: http.Server;
}

/**
 * A feature declares what it adds to the server as data, assembled into the server's one
 * registry (assemble.ts), and plugs its long-lived parts in: install() runs in createServer
 * (add services, scheduler jobs, WebSocket upgrade handlers), start() once the server listens
 * (dispatchers), stop() on close, before the database closes. Importing a feature's module does
 * nothing: only a server (or a CLI command) that lists it gets what it declares.
 */
export interface Feature {
  name: string;
  /** run inside every order command's transaction, and for the orders of a sync batch */
  orderHooks?: OrderHook[];
  /** run inside every event's transaction, before and after its row is written */
  eventHooks?: EventHook[];
  /** run once another node's batch is applied, in its transaction (sync/derived.ts) */
  remoteBatchHooks?: RemoteBatchHook[];
  /** API types whose fields `expand[]` may fill in, by type name */
  expandables?: Record<string, ExpandableDef>;
  /** tables the `/realtime` feed shows row by row */
  realtimeFeeds?: RowFeed[];
  /** `/realtime` topics of local bookkeeping, by name, with the scope that may follow each */
  noticeTopics?: Record<string, Scope>;
  /** a verifier per guest token kind a `/realtime` guest may authenticate with */
  guestTokenResolvers?: Record<string, GuestTokenResolver>;
  /** the rate budgets a guest socket draws on (the guest routes') */
  guestSocketLimits?: GuestLimits;
  /** how a guest's socket shows an order */
  guestOrderView?: GuestOrderView;
  install?(host: FeatureHost): void;
  start?(host: FeatureHost): void | Promise<void>;
  stop?(host: FeatureHost): void | Promise<void>;
}
