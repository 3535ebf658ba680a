// A load generator in a process of its own, so the server's process counts only its own CPU
// (bench/order-cpu.ts): fires `amount` requests over `connections` keep-alive connections and
// prints autocannon's counts as one line of JSON. Argument: the load as JSON.
import autocannon from 'autocannon';

const l = JSON.parse(process.argv[2]) as { url: string; method: string; headers: Record<string, string>; body: string; amount: number; connections: number };
const result = await autocannon({ url: l.url, method: l.method as 'POST', headers: l.headers, body: l.body, amount: l.amount, connections: l.connections });
console.log(JSON.stringify({ total: result.requests.total, non2xx: result.non2xx, errors: result.errors + result.timeouts, p50: result.latency.p50, p99: result.latency.p99 }));
