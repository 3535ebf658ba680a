import type { Services } from '../server/services.ts';
import type { ApiClient } from '../test/helpers/server.ts';

export interface BenchContext {
  url: string;
  keys: { secret: string; sandbox: string; widget: string };
  restaurantId: string;
  services: Services;
  api: ApiClient;
  /** the server's SQLite file (a scenario may copy it, never write to it behind the server) */
  databaseFile: string;
  /** requests/s of the bare Koa baseline returning a constant JSON of the given size, measured in this run */
  baselineRps(bodyBytes: number, connections?: number): Promise<number>;
}

export interface HttpLoad {
  method?: 'GET' | 'POST' | 'PATCH';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** rotate through these instead (autocannon requests) */
  requests?: { method?: string; path: string; headers?: Record<string, string>; body?: string }[];
  connections?: number;
}

/**
 * One benchmark. `http` ones are run with autocannon against the real server and against
 * the bare Koa baseline answering a body of the same size; `custom` ones measure what
 * autocannon cannot (delivery times, socket latency) and return lines to print.
 */
export interface BenchScenario {
  name: string;
  /** the target, printed next to the figures */
  target: string;
  minRatio?: number;
  maxP99Ms?: number;
  maxP50Ms?: number;
  http?: (ctx: BenchContext) => Promise<HttpLoad>;
  /** started right before the real load and stopped right after it: lines printed with its figures */
  observe?: (ctx: BenchContext) => () => string[];
  custom?: (ctx: BenchContext) => Promise<string[]>;
}
