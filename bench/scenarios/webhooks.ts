import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { emitEvent } from '../../server/domain/events/emit.ts';
import { updateMenuItem } from '../../server/domain/menu/items.ts';
import type { Services } from '../../server/services.ts';
import type { BenchContext, BenchScenario } from '../scenario.ts';

/** Loopback receivers that answer 200 at once and count distinct event ids. */
async function receivers(n: number) {
  return Promise.all(
    Array.from({ length: n }, async () => {
      const ids = new Set<string>();
      const server = http.createServer((req, res) => {
        ids.add(String(req.headers['webhook-id']));
        req.resume();
        req.on('end', () => res.writeHead(200).end());
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
      return { url, ids, close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))) };
    }),
  );
}

async function withEndpoints<T>(ctx: BenchContext, urls: string[], fn: (ids: string[]) => Promise<T>): Promise<T> {
  // the server's dispatcher starts on listen(); make sure it runs whatever the runner did
  ctx.services.webhooks?.start();
  const ids: string[] = [];
  try {
    for (const url of urls) {
      const r = await ctx.api.post('/v1/webhook_endpoints', { url, enabled_events: ['*'], description: 'bench' });
      if (r.status !== 201) throw new Error(`endpoint create failed: ${r.status} ${JSON.stringify(r.body)}`);
      ids.push(r.body.id);
    }
    return await fn(ids);
  } finally {
    // later scenarios' events must not fan out to these
    for (const id of ids) await ctx.api.delete(`/v1/webhook_endpoints/${id}`);
  }
}

const actorOf = (ctx: BenchContext) => ({ restaurantId: ctx.restaurantId, livemode: true, now: ctx.services.clock.now() });
const yieldLoop = () => new Promise((r) => setImmediate(r));

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { p50: at(0.5), p99: at(0.99), mean: s.reduce((a, b) => a + b, 0) / s.length };
};

async function anyMenuItem(services: Services, restaurantId: string) {
  const row = await services.db.selectFrom('menu_items').selectAll().where('restaurant_id', '=', restaurantId).limit(1).executeTakeFirst();
  if (!row) throw new Error('the bench restaurant has no menu item (run on demo data)');
  return row;
}

export const scenarios: BenchScenario[] = [
  {
    name: 'webhooks: 1,000 events to 3 loopback endpoints',
    target: 'all 3,000 deliveries made in < 10 s',
    custom: async (ctx) => {
      const rcv = await receivers(3);
      try {
        return await withEndpoints(ctx, rcv.map((r) => r.url), async () => {
          const N = 1000;
          const events: string[] = [];
          const t0 = performance.now();
          const cpu0 = process.cpuUsage();
          for (let i = 0; i < N; i++) {
            const ev = await ctx.services.tx.run((trx) => emitEvent(trx, ctx.services.registry.hooks, actorOf(ctx), 'order.updated', { id: `ord_bench${i}`, object: 'order', n: i }));
            events.push(ev.id);
            // as if each came with its own request: let the dispatcher run in between
            await yieldLoop();
          }
          const emitted = performance.now() - t0;
          const deadline = Date.now() + 60_000;
          while (!rcv.every((r) => events.every((id) => r.ids.has(id))) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
          const total = performance.now() - t0;
          const cpu = process.cpuUsage(cpu0);
          const received = rcv.reduce((s, r) => s + events.filter((id) => r.ids.has(id)).length, 0);
          // the last attempts' bookkeeping lands just after the receivers answered
          await ctx.services.webhooks?.drain();
          const settled = await ctx.services.db
            .selectFrom('events')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('id', 'in', events)
            .where('status', '=', 'delivered')
            .executeTakeFirstOrThrow();
          const ok = received === 3 * N && total < 10_000;
          return [
            `${received}/${3 * N} deliveries in ${(total / 1000).toFixed(2)} s (${Math.round((received / total) * 1000)}/s); emitting took ${(emitted / 1000).toFixed(2)} s`,
            `events settled as delivered: ${Number(settled.n)}/${N}; CPU used by this process (server, dispatcher and receivers): ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s`,
            `${ok ? 'PASS' : 'FAIL'} (target < 10 s)`,
          ];
        });
      } finally {
        await Promise.all(rcv.map((r) => r.close()));
      }
    },
  },
  {
    name: 'webhooks: cost of writing the event on the request that causes it',
    target: 'writing the event adds < 1 ms to the write',
    custom: async (ctx) => {
      const item = await anyMenuItem(ctx.services, ctx.restaurantId);
      const rounds = 5;
      const perRound = 200;
      const times: Record<'plain' | 'event' | 'event3', number[]> = { plain: [], event: [], event3: [] };
      // the write a request makes: one record update in one transaction, optionally with its event
      const write = async (withEvent: boolean, i: number) => {
        const t = performance.now();
        await ctx.services.tx.run(async (trx) => {
          const row = await updateMenuItem(trx, actorOf(ctx), item.id, { sort_order: i % 1000 });
          if (withEvent) await emitEvent(trx, ctx.services.registry.hooks, actorOf(ctx), 'order.updated', row);
        });
        return performance.now() - t;
      };
      const rcv = await receivers(3);
      try {
        for (let r = 0; r < rounds; r++) {
          for (let i = 0; i < perRound; i++) times.plain.push(await write(false, i));
          for (let i = 0; i < perRound; i++) times.event.push(await write(true, i));
          await withEndpoints(ctx, rcv.map((x) => x.url), async () => {
            for (let i = 0; i < perRound; i++) {
              times.event3.push(await write(true, i));
              await yieldLoop();
            }
            await ctx.services.webhooks?.drain();
          });
        }
      } finally {
        await Promise.all(rcv.map((x) => x.close()));
      }
      const p = stats(times.plain);
      const e = stats(times.event);
      const e3 = stats(times.event3);
      const fmt = (s: typeof p) => `p50 ${s.p50.toFixed(3)} ms, p99 ${s.p99.toFixed(3)} ms, mean ${s.mean.toFixed(3)} ms`;
      const added = e.p50 - p.p50;
      const added3 = e3.p50 - p.p50;
      return [
        `write without event:             ${fmt(p)}`,
        `write + event, no endpoints:     ${fmt(e)}  (+${added.toFixed(3)} ms p50, x${(e.mean / p.mean).toFixed(2)} mean)`,
        `write + event, 3 endpoints:      ${fmt(e3)}  (+${added3.toFixed(3)} ms p50, x${(e3.mean / p.mean).toFixed(2)} mean; dispatcher sending meanwhile)`,
        `${Math.max(added, added3) < 1 ? 'PASS' : 'FAIL'} (target: event adds < 1 ms)`,
      ];
    },
  },
];
