import { ManualClock } from '../../server/clock.ts';
import type { Config } from '../../server/config.ts';
import type { Database, Dialect } from '../../server/db/database.ts';
import { provisionRestaurant } from '../../server/domain/restaurants/provision.ts';
import { silentLogger, type Logger } from '../../server/logger.ts';
import { createServer, type ComandaServer } from '../../server/server.ts';
import type { Feature } from '../../server/features/feature.ts';
import { freshDatabase, reopen } from './db.ts';
import { assertConforms } from './openapi-conformance.ts';

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface RequestOptions {
  key?: string | null;
  body?: unknown;
  /** sent as is, with no JSON encoding */
  raw?: string;
  headers?: Record<string, string>;
}

export class ApiClient {
  constructor(
    readonly baseUrl: string,
    readonly defaultKey: string | null,
  ) {}

  async request<T = any>(method: string, path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...opts.headers };
    const key = opts.key === undefined ? this.defaultKey : opts.key;
    if (key) headers['x-api-key'] = key;
    let body: string | undefined;
    if (opts.raw !== undefined) body = opts.raw;
    else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(this.baseUrl + path, { method, headers, body });
    const text = await res.text();
    let parsed: any = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON; keep the text
    }
    assertConforms(method, path, res.status, res.headers.get('content-type'), parsed);
    return { status: res.status, body: parsed, headers: res.headers };
  }

  get<T = any>(path: string, opts?: RequestOptions) {
    return this.request<T>('GET', path, opts);
  }
  post<T = any>(path: string, body?: unknown, opts?: RequestOptions) {
    return this.request<T>('POST', path, { ...opts, body });
  }
  patch<T = any>(path: string, body?: unknown, opts?: RequestOptions) {
    return this.request<T>('PATCH', path, { ...opts, body });
  }
  delete<T = any>(path: string, opts?: RequestOptions) {
    return this.request<T>('DELETE', path, opts);
  }
  withKey(key: string | null): ApiClient {
    return new ApiClient(this.baseUrl, key);
  }
}

export interface TestHub {
  server: ComandaServer;
  url: string;
  clock: ManualClock;
  /** client with the live secret key of the first restaurant */
  api: ApiClient;
  restaurant: { id: string; slug: string; name: string };
  keys: { secret: string; sandbox: string; widget: string };
  /** provisions another restaurant on the same server */
  addRestaurant(slug: string): Promise<{ restaurant: { id: string; slug: string }; keys: { secret: string; sandbox: string; widget: string }; api: ApiClient }>;
  close(): Promise<void>;
}

/** A real server on loopback over a fresh database, with one provisioned restaurant. */
export async function startHub(
  dialect: Dialect,
  opts: { config?: Partial<Config>; clock?: ManualClock; dataDir?: string; slug?: string; logger?: Logger; features?: readonly Feature[] } = {},
): Promise<TestHub> {
  const database = await freshDatabase(dialect, { dataDir: opts.dataDir });
  const clock = opts.clock ?? new ManualClock();
  const server = createServer({
    database,
    clock,
    logger: opts.logger ?? silentLogger,
    config: { rateLimit: false, guestRateLimit: false, ...opts.config },
    features: opts.features,
  });
  const { url } = await server.listen(0, '127.0.0.1');
  const first = await provisionRestaurant(server.services.tx, clock.now(), { name: 'Test Bistro', slug: opts.slug ?? 'test-bistro' });
  return {
    server,
    url,
    clock,
    api: new ApiClient(url, first.keys.secret),
    restaurant: first.restaurant,
    keys: first.keys,
    async addRestaurant(slug: string) {
      const r = await provisionRestaurant(server.services.tx, clock.now(), { name: slug, slug });
      return { restaurant: r.restaurant, keys: r.keys, api: new ApiClient(url, r.keys.secret) };
    },
    close: () => server.close(),
  };
}

/**
 * A second server on the hub's database (a second cloud process, or the hub after a restart),
 * on the hub's clock; a SQLite hub must have been started with `dataDir`.
 */
export async function startSecondServer(hub: TestHub, dataDir?: string, config: Partial<Config> = {}): Promise<{ server: ComandaServer; api: ApiClient; url: string }> {
  const services = hub.server.services;
  const database = await reopen({ dialect: services.dialect, url: services.databaseUrl } as Database, dataDir);
  const server = createServer({ database, clock: hub.clock, logger: silentLogger, config: { rateLimit: false, guestRateLimit: false, ...config } });
  // the same machine: the key that seals stored credentials (secret.key beside the database) too
  if (server.services.operator && services.operator) server.services.operator.sealingKey = services.operator.sealingKey;
  const { url } = await server.listen(0, '127.0.0.1');
  return { server, url, api: new ApiClient(url, hub.keys.secret) };
}

/** Rows in a table, to prove a refused request wrote nothing. */
export async function countRows(hub: TestHub, table: string): Promise<number> {
  const r = await (hub.server.services.db as any).selectFrom(table).select((eb: any) => eb.fn.countAll().as('n')).executeTakeFirst();
  return Number(r.n);
}
