/**
 * Worker thread of the realtime benchmark: the station screens, on their own thread as they
 * would be on their own tablets, so the server's figures are not the clients' parsing.
 * Arrivals are stamped with absolute times (timeOrigin + now), comparable across threads,
 * and matched to the probes at the end (a probe's notice may reach this thread after its
 * messages do).
 */
import { performance } from 'node:perf_hooks';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { TestSocket } from '../../test/realtime/socket.ts';

if (isMainThread) throw new Error('realtime-screens.ts runs as the worker of bench/scenarios/realtime.ts');

const { url, key, screens, topic } = workerData as { url: string; key: string; screens: number; topic: string };
const now = () => performance.timeOrigin + performance.now();
/** `${orderId} ${screen}` → arrivals of that order's messages at that screen */
const arrivals = new Map<string, { at: number; status: string }[]>();
const sockets: TestSocket[] = [];

for (let i = 0; i < screens; i++) {
  const s = await TestSocket.open(url);
  await s.auth(key);
  await s.subscribe([topic]);
  s.ws.on('message', (raw) => {
    const at = now();
    const m = JSON.parse(raw.toString());
    if (m.type !== 'order') return;
    const k = `${m.data.id} ${i}`;
    let list = arrivals.get(k);
    if (!list) arrivals.set(k, (list = []));
    list.push({ at, status: m.data.items[0]?.status });
  });
  sockets.push(s);
}

parentPort!.on('message', (msg: { probes: { orderId: string; status: string; t0: number }[] }) => {
  const latencies: number[] = [];
  for (const p of msg.probes) {
    for (let i = 0; i < screens; i++) {
      const hit = arrivals.get(`${p.orderId} ${i}`)?.find((a) => a.at >= p.t0 && a.status === p.status);
      if (hit) latencies.push(hit.at - p.t0);
    }
  }
  const cutOff = sockets.filter((s) => s.ws.readyState !== s.ws.OPEN).length;
  for (const s of sockets) s.ws.terminate();
  parentPort!.postMessage({ latencies, cutOff });
});
parentPort!.postMessage({ ready: true });
