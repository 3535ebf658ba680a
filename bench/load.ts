import autocannon from 'autocannon';
import type { HttpLoad } from './scenario.ts';

/** seconds each load runs (BENCH_DURATION) */
export const DURATION = Number(process.env.BENCH_DURATION ?? 8);

export interface Measured {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

export async function load(url: string, l: HttpLoad): Promise<Measured> {
  const opts: Record<string, unknown> = {
    url: l.requests ? url : url + l.path,
    connections: l.connections ?? 32,
    duration: DURATION,
    workers: process.env.BENCH_WORKERS === "0" ? undefined : 1,
    method: l.method ?? 'GET',
    headers: { 'content-type': 'application/json', ...l.headers },
    body: l.body,
  };
  if (l.requests) opts.requests = l.requests.map((r) => ({ ...r, method: r.method ?? l.method ?? 'GET' }));
  const result = await autocannon(opts as unknown as autocannon.Options);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

